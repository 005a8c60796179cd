#include "launch_shape.h"
#include "strata_kernels/kernels.h"

namespace strata::kernels {

namespace {

// Grid-stride loops: one launch shape serves every n.
__global__ void copy_kernel(float* a, const float* b, size_t n) {
    for (size_t i = global_index(); i < n; i += grid_stride()) a[i] = b[i];
}

__global__ void scale_kernel(float* a, const float* b, float scalar, size_t n) {
    for (size_t i = global_index(); i < n; i += grid_stride()) a[i] = scalar * b[i];
}

__global__ void add_kernel(float* a, const float* b, const float* c, size_t n) {
    for (size_t i = global_index(); i < n; i += grid_stride()) a[i] = b[i] + c[i];
}

__global__ void triad_kernel(float* a, const float* b, const float* c, float scalar, size_t n) {
    for (size_t i = global_index(); i < n; i += grid_stride()) a[i] = b[i] + scalar * c[i];
}

int finish() {
    return static_cast<int>(cudaGetLastError());
}

}  // namespace

int launch_copy(float* a, const float* b, size_t n, void* stream) {
    copy_kernel<<<stream_blocks(n), kStreamThreads, 0, static_cast<cudaStream_t>(stream)>>>(a, b, n);
    return finish();
}

int launch_scale(float* a, const float* b, float scalar, size_t n, void* stream) {
    scale_kernel<<<stream_blocks(n), kStreamThreads, 0, static_cast<cudaStream_t>(stream)>>>(a, b, scalar, n);
    return finish();
}

int launch_add(float* a, const float* b, const float* c, size_t n, void* stream) {
    add_kernel<<<stream_blocks(n), kStreamThreads, 0, static_cast<cudaStream_t>(stream)>>>(a, b, c, n);
    return finish();
}

int launch_triad(float* a, const float* b, const float* c, float scalar, size_t n, void* stream) {
    triad_kernel<<<stream_blocks(n), kStreamThreads, 0, static_cast<cudaStream_t>(stream)>>>(a, b, c, scalar,
                                                                                             n);
    return finish();
}

int loaded_image_versions(int* binary_version, int* ptx_version) {
    cudaFuncAttributes attributes{};
    cudaError_t rc = cudaFuncGetAttributes(&attributes, triad_kernel);
    if (rc != cudaSuccess) return static_cast<int>(rc);
    *binary_version = attributes.binaryVersion;
    *ptx_version = attributes.ptxVersion;
    return 0;
}

}  // namespace strata::kernels
