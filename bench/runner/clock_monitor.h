// The GPU's SM clock and what limits it, from NVML (dlopened), sampled around
// each benchmark so a throttled run is visible in its results.
#pragma once

#include <string>

namespace strata::bench {

struct ClockSample {
    double sm_mhz = -1;  // -1: unknown
    double max_sm_mhz = -1;
    double limits = -1;  // nvmlClocksEventReasons bit mask; 1 = idle only
    bool ok() const { return sm_mhz >= 0; }
};

class ClockMonitor {
public:
    // The GPU at this PCI bus id ("0000:3B:00.0", as CUDA writes it); none
    // for an empty one.
    explicit ClockMonitor(const std::string& pci_bus_id);
    ClockSample sample() const;
    // "default (boost up to 1980 MHz)", "application clocks 1755 MHz", or "unknown (...)".
    const std::string& policy() const { return policy_; }

private:
    void* device_ = nullptr;
    std::string policy_ = "unknown (NVML not available)";
};

}  // namespace strata::bench
