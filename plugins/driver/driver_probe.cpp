#include "driver_probe.h"

#include <cstdio>
#include <cstring>
#include <map>

#include "driver_api.h"
#include "nvml_api.h"

namespace strata::driver {

namespace {

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

std::string uuid_text(const CUuuid& uuid) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "GPU-";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
        auto byte = static_cast<unsigned char>(uuid.bytes[i]);
        out += kHex[byte >> 4];
        out += kHex[byte & 15];
    }
    return out;
}

// One spelling of a PCI address for joining NVML with CUDA: NVML's busId has
// an 8-digit domain ("00000000:19:00.0"), cuDeviceGetPCIBusId a 4-digit one
// ("0000:19:00.0"), and either may be upper case. Read as numbers, written
// back in NVML's form; "" when it is not an address.
std::string canonical_pci_address(const std::string& text) {
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &tail) != 4) return "";
    char out[32];
    std::snprintf(out, sizeof out, "%08x:%02x:%02x.%x", domain, bus, device, function);
    return out;
}

// NVML's view of one GPU, keyed by PCI bus id so it can be joined with CUDA's
// (the two number GPUs differently, and CUDA_VISIBLE_DEVICES hides some).
struct NvmlDevice {
    nvmlDevice handle = nullptr;
    unsigned index = 0;
};

std::map<std::string, NvmlDevice> probe_nvml(const plugin::Reporter& report, const NvmlApi& nvml) {
    std::map<std::string, NvmlDevice> by_bus;
    if (!nvml.handle) {
        report.fact("driver.nvml.load_error", nvml.load_error, "dlopen");
        return by_bus;
    }
    report.fact("driver.nvml.loaded_path", nvml.path, "dlinfo");
    if (!nvml.usable()) {
        report.fact("driver.nvml.load_error", "libnvidia-ml.so.1 lacks nvmlInit_v2 or nvmlDeviceGetCount_v2",
                    "dlsym");
        return by_bus;
    }
    nvmlReturn rc = nvml.init();
    report.fact("driver.nvml.init_result", rc, "nvmlInit_v2");
    if (rc != 0) {
        report.fact("driver.nvml.init_error", nvml.describe(rc), "nvmlInit_v2");
        return by_bus;
    }
    char text[96] = {};
    if (nvml.driver_version && nvml.driver_version(text, sizeof text) == 0)
        report.fact("driver.nvml.driver_version", text, "nvmlSystemGetDriverVersion");
    int cuda_version = 0;
    if (nvml.cuda_driver_version && nvml.cuda_driver_version(&cuda_version) == 0)
        report.fact("driver.nvml.cuda_version", cuda_version, "nvmlSystemGetCudaDriverVersion_v2");
    unsigned count = 0;
    if (nvml.device_count(&count) == 0)
        report.fact("device.nvml_count", static_cast<int64_t>(count), "nvmlDeviceGetCount_v2");
    for (unsigned i = 0; i < count; ++i) {
        NvmlDevice device{nullptr, i};
        if (nvml.device_by_index(i, &device.handle) != 0) continue;
        NvmlPciInfo pci{};
        if (nvml.device_pci_info && nvml.device_pci_info(device.handle, &pci) == 0)
            by_bus[canonical_pci_address(pci.bus_id)] = device;
    }
    return by_bus;
}

// What the core's health rules judge (core/src/diagnosis/health_rules.cpp):
// raw counts and states; a query a GPU does not support leaves its fact out.
void describe_nvml_health(const plugin::Reporter& report, const NvmlApi& nvml, const std::string& prefix,
                          nvmlDevice device) {
    if (nvml.device_ecc_errors) {
        static constexpr struct {
            int type, counter;
            const char* name;
        } kCounts[] = {{1, 0, "ecc_errors.volatile_uncorrected"},
                       {0, 0, "ecc_errors.volatile_corrected"},
                       {1, 1, "ecc_errors.aggregate_uncorrected"},
                       {0, 1, "ecc_errors.aggregate_corrected"}};
        for (const auto& count : kCounts) {
            unsigned long long value = 0;
            if (nvml.device_ecc_errors(device, count.type, count.counter, &value) == 0)
                report.fact(prefix + count.name, static_cast<int64_t>(value), "nvmlDeviceGetTotalEccErrors");
        }
    }
    int pending = 0;
    if (nvml.device_retired_pending && nvml.device_retired_pending(device, &pending) == 0)
        report.fact(prefix + "retired_pages_pending", pending != 0, "nvmlDeviceGetRetiredPagesPendingStatus");
    unsigned correctable = 0, uncorrectable = 0, remap_pending = 0, remap_failed = 0;
    if (nvml.device_remapped_rows &&
        nvml.device_remapped_rows(device, &correctable, &uncorrectable, &remap_pending, &remap_failed) == 0) {
        report.fact(prefix + "row_remap.correctable", static_cast<int64_t>(correctable),
                    "nvmlDeviceGetRemappedRows");
        report.fact(prefix + "row_remap.uncorrectable", static_cast<int64_t>(uncorrectable),
                    "nvmlDeviceGetRemappedRows");
        report.fact(prefix + "row_remap.pending", remap_pending != 0, "nvmlDeviceGetRemappedRows");
        report.fact(prefix + "row_remap.failed", remap_failed != 0, "nvmlDeviceGetRemappedRows");
    }
    unsigned value = 0;
    if (nvml.device_temperature && nvml.device_temperature(device, kNvmlTemperatureGpu, &value) == 0)
        report.fact(prefix + "temperature_c", static_cast<int64_t>(value), "nvmlDeviceGetTemperature");
    if (nvml.device_temperature_threshold &&
        nvml.device_temperature_threshold(device, kNvmlTemperatureThresholdSlowdown, &value) == 0)
        report.fact(prefix + "slowdown_temperature_c", static_cast<int64_t>(value),
                    "nvmlDeviceGetTemperatureThreshold");
    auto link = [&](auto getter, const char* name, const char* source) {
        unsigned v = 0;
        if (getter && getter(device, &v) == 0) report.fact(prefix + name, static_cast<int64_t>(v), source);
    };
    link(nvml.device_pcie_generation, "pcie.generation", "nvmlDeviceGetCurrPcieLinkGeneration");
    link(nvml.device_pcie_max_generation, "pcie.max_generation", "nvmlDeviceGetMaxPcieLinkGeneration");
    link(nvml.device_pcie_width, "pcie.width", "nvmlDeviceGetCurrPcieLinkWidth");
    link(nvml.device_pcie_max_width, "pcie.max_width", "nvmlDeviceGetMaxPcieLinkWidth");
    NvmlFabricInfo fabric{};
    if (nvml.device_fabric_info && nvml.device_fabric_info(device, &fabric) == 0 && fabric.state != 0) {
        static constexpr const char* kStates[] = {"not_supported", "not_started", "in_progress", "completed"};
        report.fact(prefix + "fabric.state", fabric.state < 4 ? kStates[fabric.state] : "unknown",
                    "nvmlDeviceGetGpuFabricInfo");
        report.fact(prefix + "fabric.status", static_cast<int64_t>(fabric.status),
                    "nvmlDeviceGetGpuFabricInfo");
    }
    if (nvml.device_nvlink_state) {
        int64_t up = 0;
        std::string down;
        for (unsigned l = 0; l < kNvmlMaxNvLinks; ++l) {
            int active = 0;
            if (nvml.device_nvlink_state(device, l, &active) != 0) continue;  // not a link of this GPU
            if (active)
                ++up;
            else
                down += (down.empty() ? "" : ",") + std::to_string(l);
        }
        if (up > 0 || !down.empty()) {
            report.fact(prefix + "nvlink.up", up, "nvmlDeviceGetNvLinkState");
            report.fact(prefix + "nvlink.down", down, "nvmlDeviceGetNvLinkState");
        }
    }
}

// Properties only NVML knows, recorded under the CUDA device's own index.
void describe_nvml_device(const plugin::Reporter& report, const NvmlApi& nvml, const std::string& prefix,
                          nvmlDevice device) {
    unsigned current = 0, pending = 0;
    if (nvml.device_mig_mode && nvml.device_mig_mode(device, &current, &pending) == 0)
        report.fact(prefix + "mig_mode", current ? "enabled" : "disabled", "nvmlDeviceGetMigMode");
    int mode = 0, pending_mode = 0;
    if (nvml.device_compute_mode && nvml.device_compute_mode(device, &mode) == 0) {
        static constexpr const char* kModes[] = {"default", "exclusive_thread", "prohibited",
                                                 "exclusive_process"};
        report.fact(prefix + "compute_mode", mode >= 0 && mode < 4 ? kModes[mode] : "unknown",
                    "nvmlDeviceGetComputeMode");
    }
    if (nvml.device_persistence_mode && nvml.device_persistence_mode(device, &mode) == 0)
        report.fact(prefix + "persistence_mode", mode != 0, "nvmlDeviceGetPersistenceMode");
    if (nvml.device_ecc_mode && nvml.device_ecc_mode(device, &mode, &pending_mode) == 0)
        report.fact(prefix + "ecc", mode != 0, "nvmlDeviceGetEccMode");
    unsigned mhz = 0;
    if (nvml.device_clock && nvml.device_clock(device, kNvmlClockSm, &mhz) == 0)
        report.fact(prefix + "sm_clock_mhz", static_cast<int64_t>(mhz), "nvmlDeviceGetClockInfo");
    if (nvml.device_max_clock && nvml.device_max_clock(device, kNvmlClockSm, &mhz) == 0)
        report.fact(prefix + "max_sm_clock_mhz", static_cast<int64_t>(mhz), "nvmlDeviceGetMaxClockInfo");
    if (nvml.device_clock && nvml.device_clock(device, kNvmlClockMemory, &mhz) == 0)
        report.fact(prefix + "memory_clock_mhz", static_cast<int64_t>(mhz), "nvmlDeviceGetClockInfo");
    unsigned long long reasons = 0;
    if (nvml.device_clock_reasons && nvml.device_clock_reasons(device, &reasons) == 0)
        report.fact(prefix + "clock_limits", clock_reason_words(reasons),
                    "nvmlDeviceGetCurrentClocksEventReasons");
    describe_nvml_health(report, nvml, prefix, device);
}

void probe_cuda_devices(const plugin::Reporter& report, const DriverApi& api, const NvmlApi& nvml,
                        const std::map<std::string, NvmlDevice>& nvml_devices) {
    int count = 0;
    CUresult rc = api.device_get_count ? api.device_get_count(&count) : CUDA_ERROR_NOT_FOUND;
    if (rc != CUDA_SUCCESS) {
        report.fact("device.count_error", api.describe(rc), "cuDeviceGetCount");
        return;
    }
    report.fact("device.count", count, "cuDeviceGetCount");
    for (int ordinal = 0; ordinal < count; ++ordinal) {
        CUdevice device = 0;
        if (api.device_get(&device, ordinal) != CUDA_SUCCESS) continue;
        std::string prefix = "device." + std::to_string(ordinal) + ".";
        char text[256] = {};
        if (api.device_get_name && api.device_get_name(text, sizeof text, device) == CUDA_SUCCESS)
            report.fact(prefix + "name", text, "cuDeviceGetName");
        CUuuid uuid{};
        if (api.device_get_uuid && api.device_get_uuid(&uuid, device) == CUDA_SUCCESS)
            report.fact(prefix + "uuid", uuid_text(uuid), "cuDeviceGetUuid");
        std::string bus;
        if (api.device_get_pci_bus_id &&
            api.device_get_pci_bus_id(text, sizeof text, device) == CUDA_SUCCESS) {
            bus = canonical_pci_address(text);
            report.fact(prefix + "pci_bus_id", text, "cuDeviceGetPCIBusId");
        }
        int major = 0, minor = 0;
        if (api.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) ==
                CUDA_SUCCESS &&
            api.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) ==
                CUDA_SUCCESS)
            report.fact(prefix + "compute_capability", std::to_string(major) + "." + std::to_string(minor),
                        "cuDeviceGetAttribute");
        size_t bytes = 0;
        if (api.device_total_mem && api.device_total_mem(&bytes, device) == CUDA_SUCCESS)
            report.fact(prefix + "memory_mib", static_cast<int64_t>(bytes >> 20), "cuDeviceTotalMem");
        int value = 0;
        if (api.device_get_attribute(&value, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) ==
            CUDA_SUCCESS)
            report.fact(prefix + "multiprocessors", value, "cuDeviceGetAttribute");
        auto match = bus.empty() ? nvml_devices.end() : nvml_devices.find(bus);
        if (match != nvml_devices.end()) describe_nvml_device(report, nvml, prefix, match->second.handle);
    }
}

}  // namespace

void probe_driver_and_devices(const plugin::Reporter& report) {
    DriverApi api = open_driver_api();
    NvmlApi nvml = open_nvml_api();
    auto nvml_devices = probe_nvml(report, nvml);
    if (!api.loaded()) {
        report.fact("driver.libcuda.load_error", api.load_error, "dlopen");
        // Not on the search path at all is the core's driver.libcuda check;
        // a copy that is found but will not load is news only this plugin has.
        if (api.load_error.find("cannot open shared object file") == std::string::npos)
            report.check("driver.libcuda.load", STRATA_LAYER_DRIVER, STRATA_STATUS_FAIL,
                         {"libcuda.so.1 was found but cannot be loaded",
                          api.load_error,
                          "reinstall the NVIDIA driver's user-mode libraries for this architecture",
                          {"driver.libcuda.load_error"}});
        return;
    }
    report.fact("driver.libcuda.loaded_path", api.path, "dlinfo");
    // A forward-compatibility libcuda (cuda-compat package) lives in a
    // .../compat/ directory; it only works on data-centre GPUs.
    report.fact("driver.libcuda.forward_compat", api.path.find("/compat/") != std::string::npos,
                "loaded path");
    if (!api.missing.empty()) report.fact("driver.libcuda.missing_entry_points", join(api.missing), "dlsym");
    if (!api.init || !api.driver_get_version) {
        report.check("driver.libcuda.load", STRATA_LAYER_DRIVER, STRATA_STATUS_FAIL,
                     {api.path + " lacks cuInit or cuDriverGetVersion: it is not a usable CUDA driver",
                      "missing: " + join(api.missing),
                      "install the NVIDIA driver that matches the kernel module",
                      {"driver.libcuda.missing_entry_points"}});
        return;
    }
    int version = 0;
    if (api.driver_get_version(&version) == CUDA_SUCCESS) {
        report.fact("driver.cuda.version", version, "cuDriverGetVersion");
        report.fact("driver.cuda.version_text", plugin::cuda_version_text(version), "cuDriverGetVersion");
    }
    CUresult init = api.init(0);
    report.fact("driver.cuda.init_result", static_cast<int>(init), "cuInit");
    report.fact("driver.cuda.init_error", api.describe(init), "cuInit");
    report.check("driver.libcuda.load", STRATA_LAYER_DRIVER, STRATA_STATUS_PASS,
                 {"libcuda.so.1 loads from " + api.path +
                      (version ? " (driver supports CUDA " + plugin::cuda_version_text(version) + ")" : ""),
                  api.missing.empty() ? "" : "missing entry points: " + join(api.missing),
                  "",
                  {"driver.libcuda.loaded_path", "driver.cuda.version"}});
    if (init == CUDA_SUCCESS) probe_cuda_devices(report, api, nvml, nvml_devices);
    if (nvml.usable()) nvml.shutdown();
}

}  // namespace strata::driver
