#include "strata_kernels/kernels.h"

namespace strata::kernels {

namespace {
__global__ void triad_kernel(float* a, const float* b, const float* c, float scalar, size_t n) {
    // Grid-stride loop: one launch shape serves every n.
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        a[i] = b[i] + scalar * c[i];
}
}  // namespace

int launch_triad(float* a, const float* b, const float* c, float scalar, size_t n, void* stream) {
    constexpr unsigned threads = 256;
    size_t blocks = (n + threads - 1) / threads;
    if (blocks > 65535u * 8) blocks = 65535u * 8;
    if (blocks == 0) blocks = 1;
    triad_kernel<<<static_cast<unsigned>(blocks), threads, 0, static_cast<cudaStream_t>(stream)>>>(a, b, c,
                                                                                                   scalar, n);
    return static_cast<int>(cudaGetLastError());
}

}  // namespace strata::kernels
