// The cudart plugin's self-test: every representative kernel launched through
// the CUDA runtime on every GPU and verified against its CPU reference; which
// image the runtime picked (cudaFuncGetAttributes); and the same under
// CUDA_FORCE_PTX_JIT=1, in a child process so the variable is read at init.
#pragma once

#include "reporter.h"

namespace strata::cudart {

void selftest_kernels(const plugin::Reporter& report);

}  // namespace strata::cudart
