// Benchmarks of strata's own kernels, through the runtime on the harness's
// stream: STREAM copy and triad (bandwidth), a dot product, the tiled SGEMM,
// and the empty kernel (launch overhead, back to back).
#pragma once

#include "reporter.h"

namespace strata::cudart {

const strata_benchmark* kernel_benchmarks(size_t* count);
// Frees the benchmarks' buffers (the descriptor's release_benchmarks).
void release_kernel_benchmarks(const plugin::Reporter& report);

}  // namespace strata::cudart
