// What allocating and page-locking cost: cuMemAlloc/cuMemFree,
// stream-ordered cuMemAllocAsync/cuMemFreeAsync from the device's default
// pool (kept, as frameworks keep it, by a release threshold of "never"),
// cuMemHostAlloc/cuMemFreeHost, and cuMemHostRegister/cuMemHostUnregister of
// memory already touched (pinning cost grows with size and is the driver's).
// All host-timed: the driver's CPU work is the quantity.
#pragma once

#include "benchmark_case.h"

namespace strata::driver::bench {

enum MemoryVariant { kDeviceAlloc = 0, kPoolAlloc = 1, kHostAlloc = 2, kHostRegister = 3 };

bool validate_memory(const Case& c, const Run& run);
bool run_memory(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms);
void release_memory();

}  // namespace strata::driver::bench
