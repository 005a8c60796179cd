// Launch and synchronisation latency as the host sees it: an empty
// cuLaunchKernel (launches then one synchronisation: the submission rate), a
// launch and its cuStreamSynchronize (the round trip), a CUDA graph of 1 and
// of 100 empty kernel nodes through cuGraphLaunch, an event record and its
// cuEventSynchronize, and cuStreamSynchronize of an idle stream. The kernel
// is strata's probe kernel given no elements, proven on elements first.
#pragma once

#include "benchmark_case.h"

namespace strata::driver::bench {

enum LaunchVariant {
    kLaunchThroughput = 0,
    kLaunchRoundTrip = 1,
    kGraphLaunch = 2,  // Case::size nodes
    kEventSync = 3,
    kStreamSync = 4,
};

bool validate_launch(const Case& c, const Run& run);
bool run_launch(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms);
void release_launches();

}  // namespace strata::driver::bench
