// cuDNN as loaded: its version, the CUDA it was built for, and each of its
// sub-libraries (graph, ops, cnn, adv, heuristic, engines), resolved the way
// cuDNN resolves them, with cuDNN's own cross-library version checks.
#pragma once

#include "reporter.h"

namespace strata::cudnn {

void probe_cudnn(const plugin::Reporter& report);

}  // namespace strata::cudnn
