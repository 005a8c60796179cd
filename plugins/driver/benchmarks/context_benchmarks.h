// What a context costs. Cold: cuInit and the first retain of the GPU's
// primary context in a fresh process, each iteration a new one
// (strata-driver-cold-start, beside the runner, times both and the
// iteration is their sum: the process's own start-up is not the driver's).
// Warm: cuCtxCreate and cuCtxDestroy of a context of its own on the
// harness's GPU (the primary context stays current around it). Host-timed.
#pragma once

#include "benchmark_case.h"

namespace strata::driver::bench {

bool validate_context(const Case& c, const Run& run);
bool run_context(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms);

bool validate_cold_start(const Case& c, const Run& run);
bool run_cold_start(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms);

}  // namespace strata::driver::bench
