#include "probes/nvml_gpus.h"

#include <dlfcn.h>

namespace strata {

namespace {

// The few NVML entry points used, with their documented C signatures.
using nvmlDevice_t = void*;
using InitFn = int (*)();
using CountFn = int (*)(unsigned*);
using HandleFn = int (*)(unsigned, nvmlDevice_t*);
using CapabilityFn = int (*)(nvmlDevice_t, int*, int*);
using NameFn = int (*)(nvmlDevice_t, char*, unsigned);
using DriverFn = int (*)(char*, unsigned);
using ErrorStringFn = const char* (*)(int);

}  // namespace

GpuDiscovery discover_gpus() {
    GpuDiscovery out;
    void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nvml) {
        const char* error = dlerror();
        out.problem = error ? error : "libnvidia-ml.so.1 not found";
        return out;
    }
    auto sym = [&](const char* name) { return dlsym(nvml, name); };
    auto init = reinterpret_cast<InitFn>(sym("nvmlInit_v2"));
    auto shutdown = reinterpret_cast<InitFn>(sym("nvmlShutdown"));
    auto count = reinterpret_cast<CountFn>(sym("nvmlDeviceGetCount_v2"));
    auto handle = reinterpret_cast<HandleFn>(sym("nvmlDeviceGetHandleByIndex_v2"));
    auto capability = reinterpret_cast<CapabilityFn>(sym("nvmlDeviceGetCudaComputeCapability"));
    auto name = reinterpret_cast<NameFn>(sym("nvmlDeviceGetName"));
    auto driver = reinterpret_cast<DriverFn>(sym("nvmlSystemGetDriverVersion"));
    auto error_string = reinterpret_cast<ErrorStringFn>(sym("nvmlErrorString"));
    if (!init || !shutdown || !count || !handle || !capability || !name || !driver) {
        out.problem = "libnvidia-ml.so.1 lacks the NVML entry points strata needs";
        return out;  // NVML stays loaded: unloading a half-initialised driver library is riskier
    }
    auto describe = [&](int code) {
        return std::string(error_string ? error_string(code) : "NVML error") + " (" + std::to_string(code) +
               ")";
    };
    if (int rc = init(); rc != 0) {
        out.problem = "nvmlInit failed: " + describe(rc);
        return out;
    }
    char text[96] = {};
    if (driver(text, sizeof text) == 0) out.driver_version = text;
    unsigned n = 0;
    if (int rc = count(&n); rc != 0) out.problem = "nvmlDeviceGetCount failed: " + describe(rc);
    for (unsigned i = 0; i < n; ++i) {
        nvmlDevice_t device = nullptr;
        int major = 0, minor = 0;
        if (handle(i, &device) != 0 || capability(device, &major, &minor) != 0) continue;
        char device_name[96] = {};
        name(device, device_name, sizeof device_name);
        out.gpus.push_back({i, device_name, static_cast<unsigned>(major * 10 + minor)});
    }
    if (out.gpus.empty() && out.problem.empty()) out.problem = "NVML reports no GPU";
    shutdown();
    return out;
}

}  // namespace strata
