// Launch wrappers for strata's representative kernels, and the CPU
// references their results are checked against. All launches go to the
// stream given; errors come back as cudaError_t values (as int, so callers
// need not include CUDA headers). Pointers are device pointers unless a
// function's name ends in _reference.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::kernels {

// An empty kernel: one block of one thread. Measures launch latency.
int launch_empty(void* stream);

// The four STREAM kernels (McCalpin): copy a = b; scale a = s*b;
// add a = b + c; triad a = b + s*c.
int launch_copy(float* a, const float* b, size_t n, void* stream);
int launch_scale(float* a, const float* b, float scalar, size_t n, void* stream);
int launch_add(float* a, const float* b, const float* c, size_t n, void* stream);
int launch_triad(float* a, const float* b, const float* c, float scalar, size_t n, void* stream);

// Dot product x.y into *result (one float in device memory). `scratch` holds
// dot_scratch_floats() floats of device memory for the per-block partial sums.
size_t dot_scratch_floats();
int launch_dot(const float* x, const float* y, size_t n, float* scratch, float* result, void* stream);
// The launch shape of launch_dot: up to kDotBlocks blocks of kDotThreads
// threads, each thread summing its grid-stride share in float, then a tree
// in each block, then one block over the partial sums.
inline constexpr unsigned kDotBlocks = 1024;
inline constexpr unsigned kDotThreads = 256;
// How far launch_dot's float result may be from dot_reference, relative to
// |reference| (for non-negative terms): the rounding bound of its summation
// order (sequential runs of n / (blocks * threads), then two trees), with a
// safety factor. Far below what a lost block costs (1 / blocks of the sum):
// the check must catch a dropped block, not just a result of 0.
double dot_relative_tolerance(size_t n);

// C = A * B for row-major m x k and k x n float matrices, tiled through
// shared memory (the classic 16x16 tiling; a reference point, not cuBLAS).
int launch_sgemm(const float* a, const float* b, float* c, int m, int n, int k, void* stream);

// C (float, m x n) = A (bf16, m x k) * B (bf16, k x n), row-major, on tensor
// cores through WMMA. m, n and k must be multiples of 16. Tensor-core BF16
// needs compute capability 8.0 or newer; on older GPUs this returns
// cudaErrorNotSupported without launching. A and B are raw bf16 bits.
bool tensor_core_supported(int compute_capability_major);
int launch_tensor_core_gemm(const uint16_t* a, const uint16_t* b, float* c, int m, int n, int k,
                            int compute_capability_major, void* stream);

// Reads `bytes` (a multiple of 16, 16-byte aligned) of device memory and
// XORs them, 32 bits at a time, into *sink: the benchmark harness's cold-cache
// flush. A read leaves the L2 holding clean lines of this buffer; a memset
// would leave it full of dirty lines that the timed kernel then pays to
// write back. read_through_reference is the XOR it must fold into *sink.
int launch_read_through(const void* buffer, size_t bytes, unsigned* sink, void* stream);
unsigned read_through_reference(const void* buffer, size_t bytes);

// Which image of the kernels the runtime loaded on the current device:
// cudaFuncGetAttributes' binaryVersion and ptxVersion (major*10+minor) of the
// triad kernel. Equal values mean the image was JIT-compiled from PTX (or
// SASS for exactly that version); see docs/architecture.md.
int loaded_image_versions(int* binary_version, int* ptx_version);

// CPU references.
void copy_reference(float* a, const float* b, size_t n);
void scale_reference(float* a, const float* b, float scalar, size_t n);
void add_reference(float* a, const float* b, const float* c, size_t n);
void triad_reference(float* a, const float* b, const float* c, float scalar, size_t n);
double dot_reference(const float* x, const float* y, size_t n);
void sgemm_reference(const float* a, const float* b, float* c, int m, int n, int k);
void bf16_gemm_reference(const uint16_t* a, const uint16_t* b, float* c, int m, int n, int k);

// bf16 <-> float (round to nearest even), for building tensor-core inputs.
uint16_t float_to_bf16(float value);
float bf16_to_float(uint16_t bits);

// The largest difference between `got` and `want`, scaled by
// max(1, |want|), and where it is. A result is correct when `error` is at
// most the tolerance the caller chooses for the kernel.
struct Mismatch {
    double error = 0;
    size_t index = 0;
    double got = 0;
    double want = 0;
};
Mismatch largest_error(const float* got, const float* want, size_t n);

}  // namespace strata::kernels
