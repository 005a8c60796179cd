// The NCCL plugin's self-test (an all-reduce across every local GPU, every
// element of every rank verified) and its benchmarks (nccl-tests'
// collective set across sizes, each verified first, with nccl-tests' algbw
// and bus bandwidth).
#pragma once

#include "reporter.h"

namespace strata::nccl {

void selftest_all_reduce(const plugin::Reporter& report);

const strata_benchmark* collective_benchmarks(size_t* count);
// Destroys the communicators and frees the buffers (the descriptor's
// release_benchmarks); the NCCL log file goes with them.
void release_collective_benchmarks(const plugin::Reporter& report);

}  // namespace strata::nccl
