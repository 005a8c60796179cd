#include "runtime_probe.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace strata::cudart {

namespace {

// libcuda as cudart left it: already loaded (RTLD_NOLOAD), or loadable now.
std::string libcuda_path(bool* present) {
    void* handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    *present = handle != nullptr;
    return handle ? plugin::loaded_path(handle) : "";
}

plugin::Reporter::CheckText explain_device_count_error(cudaError_t rc, int runtime_version,
                                                       int driver_version) {
    std::string error = std::string(cudaGetErrorName(rc)) + " (" + std::to_string(static_cast<int>(rc)) +
                        "): " + cudaGetErrorString(rc);
    std::vector<std::string> facts = {"runtime.cudart.device_count_error", "runtime.cudart.version"};
    bool libcuda_present = false;
    std::string libcuda = libcuda_path(&libcuda_present);
    switch (rc) {
        case cudaErrorInsufficientDriver:
            if (!libcuda_present)
                return {
                    "no NVIDIA driver: libcuda.so.1 is not installed (cudart reports this as error 35, "
                    "\"driver version is insufficient\", but no driver is there at all)",
                    error,
                    "install the NVIDIA driver (see the driver layer); updating the toolkit will not help",
                    facts};
            return {
                "the driver supports CUDA " + plugin::cuda_version_text(driver_version) +
                    ", older than this runtime (CUDA " + plugin::cuda_version_text(runtime_version) + ")",
                error + "; libcuda: " + libcuda,
                "update the NVIDIA driver (runtime.driver_compatibility names the minimum), or use a runtime "
                "no newer than the driver's CUDA version",
                facts};
        case cudaErrorStubLibrary: {
            std::string entry = ld_library_path_entry_with_libcuda();
            return {"the loaded libcuda.so.1 is the CUDA toolkit's stub (" + libcuda + ")", error,
                    entry.empty() ? "remove the stubs directory from the loader's search path (ld.so.conf)"
                                  : "remove " + entry + " from LD_LIBRARY_PATH; the stub is for linking only",
                    facts};
        }
        case cudaErrorNoDevice:
            return {"the CUDA runtime sees no GPU", error,
                    "see driver.cuda_init: a container without --gpus, CUDA_VISIBLE_DEVICES, or no GPU",
                    facts};
        default:
            return {"cudaGetDeviceCount failed: " + error, "libcuda: " + libcuda,
                    "see the driver layer's checks; `strata explain` takes this error text", facts};
    }
}

}  // namespace

std::string ld_library_path_entry_with_libcuda() {
    const char* value = std::getenv("LD_LIBRARY_PATH");
    if (!value) return {};
    std::stringstream entries(value);
    std::string entry;
    while (std::getline(entries, entry, ':'))
        if (!entry.empty() && ::access((entry + "/libcuda.so.1").c_str(), F_OK) == 0) return entry;
    return {};
}

void probe_runtime(const plugin::Reporter& report) {
    int runtime_version = 0, driver_version = 0;
    cudaRuntimeGetVersion(&runtime_version);
    report.fact("runtime.cudart.version", runtime_version, "cudaRuntimeGetVersion");
    report.fact("runtime.cudart.version_text", plugin::cuda_version_text(runtime_version),
                "cudaRuntimeGetVersion");
    report.fact("runtime.cudart.path", plugin::defining_file(reinterpret_cast<void*>(&cudaRuntimeGetVersion)),
                "dladdr");
    cudaDriverGetVersion(&driver_version);  // 0 when no driver is loaded
    report.fact("runtime.cudart.driver_version", driver_version, "cudaDriverGetVersion");
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc == cudaSuccess) {
        report.fact("runtime.cudart.device_count", count, "cudaGetDeviceCount");
        report.check("runtime.cudart.device_count", STRATA_LAYER_RUNTIME, STRATA_STATUS_PASS,
                     {"CUDA runtime " + plugin::cuda_version_text(runtime_version) + " sees " +
                          std::to_string(count) + " GPU(s)",
                      "",
                      "",
                      {"runtime.cudart.device_count"}});
        return;
    }
    report.fact("runtime.cudart.device_count_result", static_cast<int>(rc), "cudaGetDeviceCount");
    report.fact("runtime.cudart.device_count_error",
                std::string(cudaGetErrorName(rc)) + ": " + cudaGetErrorString(rc), "cudaGetDeviceCount");
    report.check("runtime.cudart.device_count", STRATA_LAYER_RUNTIME, STRATA_STATUS_FAIL,
                 explain_device_count_error(rc, runtime_version, driver_version));
}

}  // namespace strata::cudart
