// Packages built against a framework that carry their own device code
// (torchvision, torchaudio, vllm, flash-attn, xformers): each is read from
// its files, as the framework is, for the kernels it brings and the CUDA
// major it was built for.
#pragma once

#include <vector>

#include "frameworks/distributions.h"
#include "frameworks/framework_install.h"

namespace strata {

// Every distribution of `all` that requires one of `framework_names` (the
// framework's own distributions, normalised) without an extra, is not part
// of a framework itself, and ships a shared object with SASS or PTX.
std::vector<FrameworkExtension> read_framework_extensions(const std::vector<std::string>& framework_names,
                                                          const std::vector<Distribution>& all);

}  // namespace strata
