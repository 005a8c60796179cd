// A package built against the framework (a stand-in for torchvision's _C.so):
// its own kernel, and calls into the framework's interface (fake_framework_api.cpp),
// left for the loader to resolve. Built against the older release
// (-DSTRATA_FAKE_OLD_API), it also imports what only that release exports.
namespace c10::cuda {
void SetDevice(int);
#ifdef STRATA_FAKE_OLD_API
void c10_cuda_check_implementation(int, const char*, const char*, unsigned, bool);
#endif
}  // namespace c10::cuda
extern "C" int aoti_torch_abi_version();

__global__ void extension_kernel(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}

int extension_entry() {
    c10::cuda::SetDevice(0);
#ifdef STRATA_FAKE_OLD_API
    c10::cuda::c10_cuda_check_implementation(0, "f", "g", 1, false);
#endif
    return aoti_torch_abi_version();
}
