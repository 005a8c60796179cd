#include "strata_kernels/kernels.h"

namespace strata::kernels {

namespace {

constexpr int kTile = 16;

// Each block computes one kTile x kTile tile of C, staging tiles of A and B
// through shared memory; out-of-range elements load as zero.
__global__ void sgemm_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
    __shared__ float tile_a[kTile][kTile];
    __shared__ float tile_b[kTile][kTile];
    int row = blockIdx.y * kTile + threadIdx.y;
    int col = blockIdx.x * kTile + threadIdx.x;
    float sum = 0;
    for (int base = 0; base < k; base += kTile) {
        int a_col = base + threadIdx.x;
        int b_row = base + threadIdx.y;
        tile_a[threadIdx.y][threadIdx.x] =
            row < m && a_col < k ? a[static_cast<size_t>(row) * k + a_col] : 0.f;
        tile_b[threadIdx.y][threadIdx.x] =
            b_row < k && col < n ? b[static_cast<size_t>(b_row) * n + col] : 0.f;
        __syncthreads();
        for (int i = 0; i < kTile; ++i) sum += tile_a[threadIdx.y][i] * tile_b[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[static_cast<size_t>(row) * n + col] = sum;
}

}  // namespace

int launch_sgemm(const float* a, const float* b, float* c, int m, int n, int k, void* stream) {
    if (m <= 0 || n <= 0 || k <= 0) return static_cast<int>(cudaErrorInvalidValue);
    dim3 block(kTile, kTile);
    dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
    sgemm_kernel<<<grid, block, 0, static_cast<cudaStream_t>(stream)>>>(a, b, c, m, n, k);
    return static_cast<int>(cudaGetLastError());
}

}  // namespace strata::kernels
