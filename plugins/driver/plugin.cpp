// strata's driver plugin: libcuda and NVML through dlopen (never linked).
// Probe: driver and per-GPU facts. Self-test: every image of the probe kernel
// loaded, launched and verified on every GPU.
#include "strata/plugin.h"

#include "driver_probe.h"
#include "image_selftest.h"

namespace {

strata_task_result probe(const strata_host_api* host) {
    strata::driver::probe_driver_and_devices(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

strata_task_result selftest(const strata_host_api* host) {
    strata::driver::selftest_images(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

const strata_plugin_descriptor kDescriptor = {
    STRATA_STRUCT_HEADER(strata_plugin_descriptor),
    .name = STRATA_STR("driver"),
    .version = STRATA_STR("1.0"),
    .description =
        STRATA_STR("libcuda and NVML: driver version, cuInit, every GPU; each kernel image loaded"),
    .layer = STRATA_LAYER_DRIVER,
    .required_libraries = nullptr,  // libcuda's absence is itself the finding
    .required_library_count = 0,
    .probe = probe,
    .selftest = selftest,
    .benchmarks = nullptr,
    .benchmark_count = 0,
    .probe_timeout_s = 30,
    // JIT-compiling the PTX on a cold cache can take seconds per GPU.
    .selftest_timeout_s = 120,
};

}  // namespace

extern "C" STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return &kDescriptor;
}
