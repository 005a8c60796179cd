// A stand-in for a framework library's C++ and C interface (soname
// libc10.so, as PyTorch's): what a package built against the framework
// imports. -DSTRATA_FAKE_OLD_API also exports what an older release did.
namespace c10::cuda {
void SetDevice(int) {}
#ifdef STRATA_FAKE_OLD_API
void c10_cuda_check_implementation(int, const char*, const char*, unsigned, bool) {}
#endif
}  // namespace c10::cuda

extern "C" int aoti_torch_abi_version() {
    return 1;
}
