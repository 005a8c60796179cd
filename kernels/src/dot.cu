#include "launch_shape.h"
#include "strata_kernels/kernels.h"

namespace strata::kernels {

namespace {

// Block-level tree reduction in shared memory; blockDim.x is a power of two.
__device__ float block_sum(float value) {
    __shared__ float partial[kStreamThreads];
    partial[threadIdx.x] = value;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    return partial[0];
}

__global__ void dot_partial_kernel(const float* x, const float* y, size_t n, float* partials) {
    float sum = 0;
    for (size_t i = global_index(); i < n; i += grid_stride()) sum += x[i] * y[i];
    float total = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void sum_partials_kernel(const float* partials, unsigned count, float* result) {
    float sum = 0;
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x) sum += partials[i];
    float total = block_sum(sum);
    if (threadIdx.x == 0) *result = total;
}

}  // namespace

size_t dot_scratch_floats() {
    return kDotBlocks;
}

// Two launches instead of atomics, so the result is deterministic run to run.
int launch_dot(const float* x, const float* y, size_t n, float* scratch, float* result, void* stream) {
    auto s = static_cast<cudaStream_t>(stream);
    unsigned blocks = stream_blocks(n) < kDotBlocks ? stream_blocks(n) : kDotBlocks;
    static_assert(kDotThreads == kStreamThreads, "block_sum's shared array is kStreamThreads wide");
    dot_partial_kernel<<<blocks, kDotThreads, 0, s>>>(x, y, n, scratch);
    sum_partials_kernel<<<1, kDotThreads, 0, s>>>(scratch, blocks, result);
    return static_cast<int>(cudaGetLastError());
}

}  // namespace strata::kernels
