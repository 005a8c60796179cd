// The cuBLAS plugin's self-test (small GEMMs of every supported type on every
// GPU, all elements verified) and its benchmarks (larger GEMMs, declared with
// their bytes and FLOPs so the harness derives GB/s and TFLOP/s).
#pragma once

#include "reporter.h"

namespace strata::cublas {

void selftest_gemms(const plugin::Reporter& report);

const strata_benchmark* gemm_benchmarks(size_t* count);
// Frees the benchmarks' handles and buffers (the descriptor's release_benchmarks).
void release_gemm_benchmarks(const plugin::Reporter& report);

}  // namespace strata::cublas
