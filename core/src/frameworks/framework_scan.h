// Finds the GPU frameworks installed in Python environments and reads each
// from its own files (metadata, build records, shared libraries).
#pragma once

#include <vector>

#include "frameworks/framework_install.h"
#include "frameworks/python_environments.h"
#include "probes/probe_context.h"

namespace strata {

// The frameworks strata knows, for messages: "PyTorch, JAX, ...".
const char* known_frameworks_text();

std::vector<FrameworkInstall> scan_frameworks(const ProbeContext& context,
                                              const std::vector<PythonEnvironment>& environments);

}  // namespace strata
