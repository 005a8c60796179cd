// The CUDA libraries each of NVIDIA's PyPI wheels installs, so strata knows
// which sonames a framework will look for even when the wheel that would
// bring them is not installed (JAX without its with-cuda extra, a torch whose
// nvidia-* dependencies were skipped with --no-deps).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata {

// "nvidia-cudnn-cu13", "9.12.0.46" -> {"libcudnn.so.9"}; {} for a wheel that
// ships no library a framework loads by soname (nvcc, nvvm) or an unknown one.
std::vector<std::string> wheel_sonames(std::string_view wheel, std::string_view version);

}  // namespace strata
