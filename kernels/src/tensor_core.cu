#include <cuda_bf16.h>
#include <mma.h>

#include "strata_kernels/kernels.h"

namespace strata::kernels {

namespace {

constexpr int kFragment = 16;

// One warp per 16x16 tile of C. The WMMA path exists only in the images for
// sm_80 and newer (BF16 fragments need them); older images carry a trap, and
// the host wrapper never launches there.
__global__ void tensor_core_gemm_kernel(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int m,
                                        int n, int k) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    using namespace nvcuda;
    int tile_row = blockIdx.y * kFragment;
    int tile_col = blockIdx.x * kFragment;
    wmma::fragment<wmma::matrix_a, kFragment, kFragment, kFragment, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, kFragment, kFragment, kFragment, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, kFragment, kFragment, kFragment, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int base = 0; base < k; base += kFragment) {
        wmma::load_matrix_sync(fa, a + static_cast<size_t>(tile_row) * k + base, k);
        wmma::load_matrix_sync(fb, b + static_cast<size_t>(base) * n + tile_col, n);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + static_cast<size_t>(tile_row) * n + tile_col, acc, n, wmma::mem_row_major);
#else
    (void)a, (void)b, (void)c, (void)m, (void)n, (void)k;
    __trap();
#endif
}

}  // namespace

bool tensor_core_supported(int compute_capability_major) {
    return compute_capability_major >= 8;
}

int launch_tensor_core_gemm(const uint16_t* a, const uint16_t* b, float* c, int m, int n, int k,
                            int compute_capability_major, void* stream) {
    if (!tensor_core_supported(compute_capability_major)) return static_cast<int>(cudaErrorNotSupported);
    if (m <= 0 || n <= 0 || k <= 0 || m % kFragment || n % kFragment || k % kFragment)
        return static_cast<int>(cudaErrorInvalidValue);
    dim3 grid(n / kFragment, m / kFragment);
    tensor_core_gemm_kernel<<<grid, 32, 0, static_cast<cudaStream_t>(stream)>>>(
        reinterpret_cast<const __nv_bfloat16*>(a), reinterpret_cast<const __nv_bfloat16*>(b), c, m, n, k);
    return static_cast<int>(cudaGetLastError());
}

}  // namespace strata::kernels
