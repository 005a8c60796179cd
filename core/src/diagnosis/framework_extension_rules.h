// framework.extensions.<id>: whether the packages built against a framework
// (torchvision, vllm, flash-attn) were built for the framework's CUDA major
// and carry device code for the GPU.
#pragma once

#include "diagnosis/framework_rules.h"

namespace strata {

void check_extensions(const FrameworkInstall& install, const FrameworkTargets& targets, Report& report);

}  // namespace strata
