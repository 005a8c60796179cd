// Whether this machine can run the GPU tests, and if not, why in words: a
// missing driver makes cudart say "driver version is insufficient" (35),
// which would be the wrong reason to print.
#pragma once

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <string>

namespace strata::test {

// Empty when a GPU is usable; otherwise the reason to print with the skip.
inline std::string gpu_unavailable_reason() {
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc == cudaSuccess && count > 0) return {};
    if (rc == cudaErrorInsufficientDriver && !dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD) &&
        !dlopen("libcuda.so.1", RTLD_LAZY))
        return "no NVIDIA driver (libcuda.so.1 cannot be loaded)";
    if (rc != cudaSuccess) return std::string(cudaGetErrorName(rc)) + ": " + cudaGetErrorString(rc);
    return "0 CUDA devices";
}

}  // namespace strata::test
