// The kernel layer's first check: for each GPU present, which image of
// strata's own device code (its kernels library and its plugins) the driver
// would load — native SASS, PTX through the JIT, or nothing.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"
#include "probes/nvml_gpus.h"

namespace strata {

// strata's own files that carry device code: <bin>/../lib/libstrata_kernels.so
// and the built-in plugins.
std::vector<std::string> own_device_code_files(const std::string& executable);

// Pure: the check for these GPUs and files (tests feed both).
Check kernel_image_check(const std::vector<GpuInfo>& gpus, const std::vector<std::string>& files,
                         const std::string& driver_version);

// kernel.ptx_jit: whether a driver of this CUDA version (12040) can JIT the
// newest PTX in strata's own device code.
Check ptx_jit_check(const std::vector<std::string>& files, long long driver_cuda_version);

// Adds the checks to `report` (static, so never gated), for the GPUs the
// driver plugin reported, or NVML's when the plugin did not run.
void check_own_kernel_images(const std::string& executable, Report& report);

}  // namespace strata
