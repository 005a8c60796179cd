// cuBLAS and cuBLASLt as loaded: versions, the CUDA they were built for, and
// every file of theirs in this process. Works without a GPU.
#pragma once

#include "reporter.h"

namespace strata::cublas {

void probe_cublas(const plugin::Reporter& report);

}  // namespace strata::cublas
