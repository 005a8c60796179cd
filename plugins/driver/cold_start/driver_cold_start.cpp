// strata-driver-cold-start: what a fresh process pays before its first
// kernel, through libcuda alone: cuInit, then the first retain of a GPU's
// primary context (where the driver creates the context). The driver
// plugin's context/cold_start benchmark runs it once per iteration, so each
// is a new process, as the first CUDA call of every job is.
//
//   strata-driver-cold-start GPU   ->  "init_ns retain_ns" on stdout, exit 0
//                                      "error: <what>" on stderr, exit 1
#include <cuda.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

using Clock = std::chrono::steady_clock;

int fail(const char* what, int code = 0) {
    std::fprintf(stderr, "error: %s%s%d\n", what, code ? ": CUresult " : "", code);
    return 1;
}

long long since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) return fail("usage: strata-driver-cold-start GPU");
    char* end = nullptr;
    long ordinal = std::strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || ordinal < 0 || ordinal > 4096) return fail("GPU is not a number");
    void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!cuda) return fail("libcuda.so.1 cannot be loaded");
    auto init = reinterpret_cast<decltype(&::cuInit)>(dlsym(cuda, "cuInit"));
    auto device_get = reinterpret_cast<decltype(&::cuDeviceGet)>(dlsym(cuda, "cuDeviceGet"));
    auto retain =
        reinterpret_cast<decltype(&::cuDevicePrimaryCtxRetain)>(dlsym(cuda, "cuDevicePrimaryCtxRetain"));
    auto release =
        reinterpret_cast<decltype(&::cuDevicePrimaryCtxRelease)>(dlsym(cuda, "cuDevicePrimaryCtxRelease_v2"));
    if (!init || !device_get || !retain || !release)
        return fail("libcuda lacks cuInit or the primary context calls");
    auto started = Clock::now();
    if (CUresult rc = init(0); rc != CUDA_SUCCESS) return fail("cuInit", rc);
    long long init_ns = since(started);
    CUdevice device = 0;
    if (CUresult rc = device_get(&device, static_cast<int>(ordinal)); rc != CUDA_SUCCESS)
        return fail("cuDeviceGet", rc);
    CUcontext context = nullptr;
    started = Clock::now();
    if (CUresult rc = retain(&context, device); rc != CUDA_SUCCESS)
        return fail("cuDevicePrimaryCtxRetain", rc);
    long long retain_ns = since(started);
    release(device);
    std::printf("%lld %lld\n", init_ns, retain_ns);
    return 0;
}
