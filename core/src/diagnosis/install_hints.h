// How to install a missing CUDA library, by soname: the Debian/Ubuntu package
// (from NVIDIA's CUDA repository), the PyPI wheel, and the toolkit component.
#pragma once

#include <string>
#include <string_view>

#include "model/layer.h"

namespace strata {

// "" when the soname is not one strata knows.
std::string install_hint(std::string_view soname);

// The layer a library belongs to: libcuda and NVML the driver, libcudart the
// runtime, anything else the library layer.
Layer layer_of_library(std::string_view soname);

}  // namespace strata
