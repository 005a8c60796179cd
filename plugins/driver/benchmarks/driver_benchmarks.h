// The driver plugin's benchmarks: what a driver update changes (contexts,
// module loading and the PTX JIT, allocation and pinning, the copy engines,
// launch, graph and synchronisation latency), each through libcuda alone
// (STRATA_BENCHMARKS_DRIVER_API), validated once before timing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "strata/plugin.h"

namespace strata::driver::bench {

const strata_benchmark* driver_benchmarks(size_t* count);

// strata_plugin_descriptor.benchmark_gpus: the copies between GPUs need two.
const uint32_t* driver_benchmark_gpus();

// release_benchmarks: modules, graphs and buffers the benchmarks kept.
strata_task_result release_driver_benchmarks(const strata_host_api* host);

}  // namespace strata::driver::bench
