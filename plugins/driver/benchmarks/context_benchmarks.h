// What a context costs: cuCtxCreate and cuCtxDestroy of a context of its
// own on the harness's GPU, in a warm process (the primary context stays
// current around it). Host-timed.
#pragma once

#include "benchmark_case.h"

namespace strata::driver::bench {

bool validate_context(const Case& c, const Run& run);
bool run_context(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms);

}  // namespace strata::driver::bench
