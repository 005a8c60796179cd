// libnvidia-ml.so.1 by dlopen. NVML has no header in the CUDA toolkit, so the
// few entry points used are declared here with NVML's documented signatures.
// Any of them may be missing from an old NVML; callers check for null.
#pragma once

#include <string>

namespace strata::driver {

using nvmlReturn = int;  // 0 = NVML_SUCCESS
using nvmlDevice = struct nvmlDevice_st*;

struct NvmlMemory {
    unsigned long long total, free, used;
};

struct NvmlPciInfo {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
};

// nvmlGpuFabricInfo_t (R525+): a GPU's registration with the NVSwitch fabric.
struct NvmlFabricInfo {
    unsigned char cluster_uuid[16];
    nvmlReturn status;  // of the registration
    unsigned clique_id;
    unsigned char state;  // 0 not supported, 1 not started, 2 in progress, 3 completed
};

struct NvmlApi {
    void* handle = nullptr;
    std::string path;
    std::string load_error;

    nvmlReturn (*init)() = nullptr;
    nvmlReturn (*shutdown)() = nullptr;
    const char* (*error_string)(nvmlReturn) = nullptr;
    nvmlReturn (*driver_version)(char*, unsigned) = nullptr;
    nvmlReturn (*cuda_driver_version)(int*) = nullptr;
    nvmlReturn (*device_count)(unsigned*) = nullptr;
    nvmlReturn (*device_by_index)(unsigned, nvmlDevice*) = nullptr;
    nvmlReturn (*device_name)(nvmlDevice, char*, unsigned) = nullptr;
    nvmlReturn (*device_uuid)(nvmlDevice, char*, unsigned) = nullptr;
    nvmlReturn (*device_pci_info)(nvmlDevice, NvmlPciInfo*) = nullptr;
    nvmlReturn (*device_memory)(nvmlDevice, NvmlMemory*) = nullptr;
    nvmlReturn (*device_mig_mode)(nvmlDevice, unsigned*, unsigned*) = nullptr;
    nvmlReturn (*device_compute_mode)(nvmlDevice, int*) = nullptr;
    nvmlReturn (*device_persistence_mode)(nvmlDevice, int*) = nullptr;
    nvmlReturn (*device_ecc_mode)(nvmlDevice, int*, int*) = nullptr;
    nvmlReturn (*device_clock)(nvmlDevice, int, unsigned*) = nullptr;
    nvmlReturn (*device_max_clock)(nvmlDevice, int, unsigned*) = nullptr;
    nvmlReturn (*device_clock_reasons)(nvmlDevice, unsigned long long*) = nullptr;
    // Health: ECC counts (error type 0 corrected / 1 uncorrected, counter 0
    // volatile / 1 aggregate), retired pages, row remapping, temperature,
    // PCIe link, NVLink state.
    nvmlReturn (*device_ecc_errors)(nvmlDevice, int, int, unsigned long long*) = nullptr;
    nvmlReturn (*device_retired_pending)(nvmlDevice, int*) = nullptr;
    nvmlReturn (*device_remapped_rows)(nvmlDevice, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
    nvmlReturn (*device_temperature)(nvmlDevice, int, unsigned*) = nullptr;
    nvmlReturn (*device_temperature_threshold)(nvmlDevice, int, unsigned*) = nullptr;
    nvmlReturn (*device_pcie_generation)(nvmlDevice, unsigned*) = nullptr;
    nvmlReturn (*device_pcie_max_generation)(nvmlDevice, unsigned*) = nullptr;
    nvmlReturn (*device_pcie_width)(nvmlDevice, unsigned*) = nullptr;
    nvmlReturn (*device_pcie_max_width)(nvmlDevice, unsigned*) = nullptr;
    nvmlReturn (*device_nvlink_state)(nvmlDevice, unsigned, int*) = nullptr;
    nvmlReturn (*device_fabric_info)(nvmlDevice, NvmlFabricInfo*) = nullptr;

    bool usable() const { return init && shutdown && device_count && device_by_index; }
    std::string describe(nvmlReturn result) const;
};

inline constexpr int kNvmlClockSm = 1;
inline constexpr int kNvmlClockMemory = 2;
inline constexpr int kNvmlTemperatureGpu = 0;
inline constexpr int kNvmlTemperatureThresholdSlowdown = 1;
inline constexpr unsigned kNvmlMaxNvLinks = 18;  // NVML_NVLINK_MAX_LINKS

NvmlApi open_nvml_api();

// The active clock-limiting reasons as words ("sw_power_cap, hw_slowdown"),
// from NVML's nvmlClocksEventReason bit masks; "none" when only idle is set.
std::string clock_reason_words(unsigned long long reasons);

}  // namespace strata::driver
