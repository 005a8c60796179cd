// The cudart plugin's probe: which CUDA runtime is loaded, what it says about
// the driver, and cudaGetDeviceCount with its error translated into a cause.
#pragma once

#include "reporter.h"

namespace strata::cudart {

void probe_runtime(const plugin::Reporter& report);

// The first LD_LIBRARY_PATH entry holding a libcuda.so.1, "" if none: the
// entry a person must remove when it is the toolkit's stub.
std::string ld_library_path_entry_with_libcuda();

}  // namespace strata::cudart
