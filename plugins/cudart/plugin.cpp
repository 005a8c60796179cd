// strata's CUDA runtime plugin: links libcudart (shared, through strata's
// kernels library) so another cudart build can be put first on the library
// path and compared. Probe: versions, path, device count with its error
// translated. Self-test: every kernel through the runtime, verified.
#include "strata/plugin.h"

#include "kernel_selftest.h"
#include "runtime_probe.h"

namespace {

strata_task_result probe(const strata_host_api* host) {
    strata::cudart::probe_runtime(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

strata_task_result selftest(const strata_host_api* host) {
    strata::cudart::selftest_kernels(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

const strata_str kRequired[] = {STRATA_STR("libcudart.so." STRATA_CUDA_MAJOR)};

const strata_plugin_descriptor kDescriptor = {
    STRATA_STRUCT_HEADER(strata_plugin_descriptor),
    .name = STRATA_STR("cudart"),
    .version = STRATA_STR("1.0"),
    .description =
        STRATA_STR("CUDA runtime: version, path, device count; every kernel launched and verified"),
    .layer = STRATA_LAYER_RUNTIME,
    .required_libraries = kRequired,
    .required_library_count = 1,
    .probe = probe,
    .selftest = selftest,
    .benchmarks = nullptr,
    .benchmark_count = 0,
    .probe_timeout_s = 30,
    .selftest_timeout_s = 180,
};

}  // namespace

extern "C" STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return &kDescriptor;
}
