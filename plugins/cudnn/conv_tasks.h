// The cuDNN plugin's self-test (three convolution shapes on every GPU, every
// output verified) and its benchmarks (two ResNet-like layers).
#pragma once

#include "reporter.h"

namespace strata::cudnn {

void selftest_convolutions(const plugin::Reporter& report);

const strata_benchmark* convolution_benchmarks(size_t* count);
// Frees the benchmarks' handles and buffers (the descriptor's release_benchmarks).
void release_convolution_benchmarks(const plugin::Reporter& report);

}  // namespace strata::cudnn
