#include "clock_monitor.h"

#include <dlfcn.h>

#include <cctype>
#include <cstring>

namespace strata::bench {

namespace {

// NVML's documented signatures; the library is opened once, never linked.
struct Nvml {
    int (*init)() = nullptr;
    int (*by_pci_bus_id)(const char*, void**) = nullptr;
    int (*clock)(void*, int, unsigned*) = nullptr;
    int (*max_clock)(void*, int, unsigned*) = nullptr;
    int (*app_clock)(void*, int, unsigned*) = nullptr;
    int (*reasons)(void*, unsigned long long*) = nullptr;
    bool ok = false;
};

const Nvml& nvml() {
    static const Nvml api = [] {
        Nvml out;
        void* handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!handle) return out;
        auto sym = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
        };
        sym(out.init, "nvmlInit_v2");
        sym(out.by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
        sym(out.clock, "nvmlDeviceGetClockInfo");
        sym(out.max_clock, "nvmlDeviceGetMaxClockInfo");
        sym(out.app_clock, "nvmlDeviceGetApplicationsClock");
        sym(out.reasons, "nvmlDeviceGetCurrentClocksEventReasons");
        if (!out.reasons) sym(out.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
        out.ok = out.init && out.by_pci_bus_id && out.clock && out.init() == 0;
        return out;
    }();
    return api;
}

constexpr int kClockSm = 1;

}  // namespace

ClockMonitor::ClockMonitor(const std::string& pci_bus_id) {
    const Nvml& api = nvml();
    if (!api.ok || pci_bus_id.empty()) return;
    if (api.by_pci_bus_id(pci_bus_id.c_str(), &device_) != 0) {
        device_ = nullptr;
        return;
    }
    unsigned max = 0, app = 0;
    bool have_max = api.max_clock && api.max_clock(device_, kClockSm, &max) == 0;
    bool have_app = api.app_clock && api.app_clock(device_, kClockSm, &app) == 0;
    if (have_app && have_max && app < max)
        policy_ = "application clocks " + std::to_string(app) + " MHz (max " + std::to_string(max) + ")";
    else if (have_max)
        policy_ = "default (boost up to " + std::to_string(max) + " MHz)";
    else
        policy_ = "unknown (NVML does not report the clocks)";
}

ClockSample ClockMonitor::sample() const {
    ClockSample out;
    const Nvml& api = nvml();
    if (!device_) return out;
    unsigned mhz = 0;
    if (api.clock(device_, kClockSm, &mhz) == 0) out.sm_mhz = mhz;
    if (api.max_clock && api.max_clock(device_, kClockSm, &mhz) == 0) out.max_sm_mhz = mhz;
    unsigned long long reasons = 0;
    if (api.reasons && api.reasons(device_, &reasons) == 0) out.limits = static_cast<double>(reasons);
    return out;
}

}  // namespace strata::bench
