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
// of a framework itself, and ships a shared object with SASS or PTX. Where
// strata knows the framework's interface (framework_abi.h), each one's
// imports from it are looked up in what `framework` (the framework's own
// distributions) and the other packages built on it export. `framework_cuda`
// is the CUDA release the framework's build record names ("13.2"; "" when
// unknown): of a package that ships a build per CUDA release, only the one
// for it is read, as the package loads only that one.
std::vector<FrameworkExtension> read_framework_extensions(const std::string& framework_id,
                                                          const std::vector<const Distribution*>& framework,
                                                          const std::vector<std::string>& framework_names,
                                                          const std::vector<Distribution>& all,
                                                          const std::string& framework_cuda);

}  // namespace strata
