// A framework's shared libraries: the device code in each (arch/), and for
// every CUDA library it links or its dependency wheels ship, the copies the
// dynamic loader would find, in its order, with their versions.
#pragma once

#include <vector>

#include "frameworks/distributions.h"
#include "frameworks/framework_install.h"
#include "probes/probe_context.h"

namespace strata {

// A shared object by its name: "x.so", "libx.so.12".
bool is_shared_library(const std::string& path);

// A CUDA library carried in a wheel under auditwheel's hashed name, old or
// new style (libcusparseLt-f80c68d1.so.0, libcudart.3eda8113.so.13): NVIDIA's
// code, not the package's own.
bool is_vendored_cuda_library(const std::string& path);

// `dists` are the framework's own distributions, `all` every distribution
// of its environment (for the nvidia-* wheels). Needs install.dependencies.
void read_framework_files(const ProbeContext& context, FrameworkInstall& install,
                          const std::vector<const Distribution*>& dists,
                          const std::vector<Distribution>& all);

}  // namespace strata
