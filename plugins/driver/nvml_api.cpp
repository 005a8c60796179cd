#include "nvml_api.h"

#include <dlfcn.h>

#include "reporter.h"

namespace strata::driver {

std::string NvmlApi::describe(nvmlReturn result) const {
    const char* text = error_string ? error_string(result) : nullptr;
    return std::string(text ? text : "NVML error") + " (" + std::to_string(result) + ")";
}

NvmlApi open_nvml_api() {
    NvmlApi api;
    dlerror();
    api.handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api.handle) {
        const char* error = dlerror();
        api.load_error = error ? error : "libnvidia-ml.so.1: cannot be loaded";
        return api;
    }
    api.path = plugin::loaded_path(api.handle);
    auto resolve = [&](auto& out, const char* name) {
        out = reinterpret_cast<std::remove_reference_t<decltype(out)>>(dlsym(api.handle, name));
    };
    resolve(api.init, "nvmlInit_v2");
    resolve(api.shutdown, "nvmlShutdown");
    resolve(api.error_string, "nvmlErrorString");
    resolve(api.driver_version, "nvmlSystemGetDriverVersion");
    resolve(api.cuda_driver_version, "nvmlSystemGetCudaDriverVersion_v2");
    resolve(api.device_count, "nvmlDeviceGetCount_v2");
    resolve(api.device_by_index, "nvmlDeviceGetHandleByIndex_v2");
    resolve(api.device_name, "nvmlDeviceGetName");
    resolve(api.device_uuid, "nvmlDeviceGetUUID");
    resolve(api.device_pci_info, "nvmlDeviceGetPciInfo_v3");
    resolve(api.device_memory, "nvmlDeviceGetMemoryInfo");
    resolve(api.device_mig_mode, "nvmlDeviceGetMigMode");
    resolve(api.device_compute_mode, "nvmlDeviceGetComputeMode");
    resolve(api.device_persistence_mode, "nvmlDeviceGetPersistenceMode");
    resolve(api.device_ecc_mode, "nvmlDeviceGetEccMode");
    resolve(api.device_clock, "nvmlDeviceGetClockInfo");
    resolve(api.device_max_clock, "nvmlDeviceGetMaxClockInfo");
    // Renamed from ...ThrottleReasons in R535; the bits did not change.
    resolve(api.device_clock_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!api.device_clock_reasons)
        resolve(api.device_clock_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    resolve(api.device_ecc_errors, "nvmlDeviceGetTotalEccErrors");
    resolve(api.device_retired_pending, "nvmlDeviceGetRetiredPagesPendingStatus");
    resolve(api.device_remapped_rows, "nvmlDeviceGetRemappedRows");
    resolve(api.device_temperature, "nvmlDeviceGetTemperature");
    resolve(api.device_temperature_threshold, "nvmlDeviceGetTemperatureThreshold");
    resolve(api.device_pcie_generation, "nvmlDeviceGetCurrPcieLinkGeneration");
    resolve(api.device_pcie_max_generation, "nvmlDeviceGetMaxPcieLinkGeneration");
    resolve(api.device_pcie_width, "nvmlDeviceGetCurrPcieLinkWidth");
    resolve(api.device_pcie_max_width, "nvmlDeviceGetMaxPcieLinkWidth");
    resolve(api.device_nvlink_state, "nvmlDeviceGetNvLinkState");
    resolve(api.device_fabric_info, "nvmlDeviceGetGpuFabricInfo");
    return api;
}

std::string clock_reason_words(unsigned long long reasons) {
    struct Bit {
        unsigned long long mask;
        const char* word;
    };
    // nvml.h: nvmlClocksEventReason* (GpuIdle 0x1 is not a limit).
    static constexpr Bit kBits[] = {
        {0x2, "applications_clocks_setting"},
        {0x4, "sw_power_cap"},
        {0x8, "hw_slowdown"},
        {0x10, "sync_boost"},
        {0x20, "sw_thermal"},
        {0x40, "hw_thermal"},
        {0x80, "hw_power_brake"},
        {0x100, "display_clock_setting"},
    };
    std::string out;
    for (const Bit& bit : kBits)
        if (reasons & bit.mask) out += (out.empty() ? "" : ", ") + std::string(bit.word);
    return out.empty() ? "none" : out;
}

}  // namespace strata::driver
