// strata's CUDA runtime plugin: links libcudart (shared, through strata's
// kernels library) so another cudart build can be put first on the library
// path and compared. Probe: versions, path, device count with its error
// translated. Self-test: every kernel through the runtime, verified. Benchmarks:
// strata's kernels (STREAM, dot, tiled SGEMM, launch overhead).
#include "kernel_benchmarks.h"
#include "kernel_selftest.h"
#include "plugin_entry.h"
#include "runtime_probe.h"

namespace {

const strata_str kRequired[] = {STRATA_STR("libcudart.so." STRATA_CUDA_MAJOR)};

const strata_plugin_descriptor kDescriptor = [] {
    strata::plugin::DescriptorFields fields{
        .name = STRATA_STR("cudart"),
        .description =
            STRATA_STR("CUDA runtime: version, path, device count; every kernel launched and verified"),
        .layer = STRATA_LAYER_RUNTIME,
        .required_libraries = kRequired,
        .required_library_count = 1,
        .probe = strata::plugin::task<strata::cudart::probe_runtime>,
        .selftest = strata::plugin::task<strata::cudart::selftest_kernels>,
        .selftest_timeout_s = 180,
        .release_benchmarks = strata::plugin::task<strata::cudart::release_kernel_benchmarks>,
    };
    fields.benchmarks = strata::cudart::kernel_benchmarks(&fields.benchmark_count);
    return strata::plugin::make_descriptor(fields);
}();

}  // namespace

extern "C" STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return &kDescriptor;
}
