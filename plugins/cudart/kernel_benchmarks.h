// Benchmarks of strata's own kernels, through the runtime on the harness's
// stream: STREAM copy and triad (bandwidth), a dot product, the tiled SGEMM,
// and the empty kernel (launch overhead, back to back).
#pragma once

#include "strata/plugin.h"

namespace strata::cudart {

const strata_benchmark* kernel_benchmarks(size_t* count);

}  // namespace strata::cudart
