// strata's driver plugin: libcuda and NVML through dlopen (never linked).
// Probe: driver and per-GPU facts. Self-test: every image of the probe kernel
// loaded, launched and verified on every GPU. Benchmarks: what a driver
// update changes (benchmarks/), through libcuda alone.
#include "benchmarks/driver_benchmarks.h"
#include "driver_probe.h"
#include "image_selftest.h"
#include "plugin_entry.h"

namespace {

size_t benchmark_count = 0;
const strata_benchmark* benchmarks = strata::driver::bench::driver_benchmarks(&benchmark_count);

const strata_plugin_descriptor kDescriptor = strata::plugin::make_descriptor({
    .name = STRATA_STR("driver"),
    .description =
        STRATA_STR("libcuda and NVML: driver version, cuInit, every GPU; each kernel image loaded"),
    .layer = STRATA_LAYER_DRIVER,
    // No required libraries: libcuda's absence is itself the finding.
    .probe = strata::plugin::task<strata::driver::probe_driver_and_devices>,
    .selftest = strata::plugin::task<strata::driver::selftest_images>,
    .benchmarks = benchmarks,
    .benchmark_count = benchmark_count,
    // JIT-compiling the PTX on a cold cache can take seconds per GPU.
    .selftest_timeout_s = 120,
    .release_benchmarks = strata::driver::bench::release_driver_benchmarks,
    .benchmark_flags = STRATA_BENCHMARKS_DRIVER_API,
    .benchmark_gpus = strata::driver::bench::driver_benchmark_gpus(),
});

}  // namespace

extern "C" STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return &kDescriptor;
}
