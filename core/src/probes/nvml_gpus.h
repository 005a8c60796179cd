// The GPUs present, as NVML sees them, for decisions that need each GPU's
// compute capability (strata arch --gpu, the kernel-layer check). NVML is
// dlopened, never linked, so strata runs on hosts without a driver.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace strata {

struct GpuInfo {
    unsigned index = 0;
    std::string name;
    unsigned sm = 0;  // compute capability 9.0 -> 90
};

struct GpuDiscovery {
    std::vector<GpuInfo> gpus;
    std::string driver_version;  // "580.65.06", empty when unknown
    std::string problem;         // why none were found, when none were
};

GpuDiscovery discover_gpus();

}  // namespace strata
