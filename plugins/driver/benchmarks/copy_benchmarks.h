// The copy engines, as nvbandwidth measures them (memcpy.cpp, testcases_ce.cpp):
// cuMemcpyAsync between two events on the stream, bandwidth = bytes per copy
// x copies / event time, in GB/s of 1e9 bytes; a device-to-device copy counts
// its bytes once (nvbandwidth #48: the figure is the copy, not the DRAM
// traffic, which is twice that); a bidirectional test runs the opposite
// direction on a second stream at the same time and reports the measured
// direction only. Host memory is pinned (cuMemHostAlloc) or pageable
// (malloc, touched): a pageable copy goes through the driver's staging
// buffers, which is what a driver update changes.
#pragma once

#include "benchmark_case.h"

namespace strata::driver::bench {

enum CopyVariant {
    kHostToDevicePinned = 0,
    kHostToDevicePageable = 1,
    kDeviceToHostPinned = 2,
    kDeviceToHostPageable = 3,
    kDeviceToDevice = 4,
    kHostToDeviceBidirectional = 5,  // with a device-to-host copy on a second stream
};

bool validate_copy(const Case& c, const Run& run);
bool run_copy(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms);
void release_copies();

}  // namespace strata::driver::bench
