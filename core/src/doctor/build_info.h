// What this strata binary is: version, revision, build type, the CUDA
// toolkit it was built with and the SM list its kernels carry.
#pragma once

#include <string>
#include <vector>

namespace strata {

struct BuildInfo {
    std::string version;
    std::string git_revision;
    std::string build_type;
    std::string cuda_toolkit;                // "13.0.88", or "none" when built without nvcc
    std::vector<std::string> architectures;  // "sm_75", ..., "compute_120" (PTX)
};

const BuildInfo& build_info();

}  // namespace strata
