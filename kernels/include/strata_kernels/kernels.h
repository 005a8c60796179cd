// Launch wrappers for strata's representative kernels, and the CPU
// references their results are checked against. All launches go to the
// stream given; errors come back as cudaError_t values (as int, so callers
// need not include CUDA headers).
#pragma once

#include <cstddef>

namespace strata::kernels {

// An empty kernel: one block of one thread. Measures launch latency.
int launch_empty(void* stream);

// STREAM triad: a[i] = b[i] + scalar * c[i], on device pointers.
int launch_triad(float* a, const float* b, const float* c, float scalar, size_t n, void* stream);

// The same triad on the CPU, for verification.
void triad_reference(float* a, const float* b, const float* c, float scalar, size_t n);

}  // namespace strata::kernels
