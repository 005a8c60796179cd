// NCCL as loaded: its version and file. Works without a GPU.
#pragma once

#include "reporter.h"

namespace strata::nccl {

void probe_nccl(const plugin::Reporter& report);

}  // namespace strata::nccl
