// strata's NCCL plugin: libnccl linked (so the loader's choice is what is
// reported), probed without a GPU, all-reduce verified across every local
// GPU, nccl-tests' collective set verified and timed.
#include "nccl_probe.h"
#include "nccl_tasks.h"
#include "plugin_entry.h"

namespace {

const strata_plugin_descriptor* descriptor() {
    static const strata_str required[] = {STRATA_STR("libnccl.so.2")};
    static const strata_plugin_descriptor d = [] {
        strata::plugin::DescriptorFields fields{
            .name = STRATA_STR("nccl"),
            .description = STRATA_STR(
                "NCCL: version and file; nccl-tests' collectives across local GPUs verified and timed"),
            .layer = STRATA_LAYER_LIBRARY,
            .required_libraries = required,
            .required_library_count = std::size(required),
            .probe = strata::plugin::task<strata::nccl::probe_nccl>,
            .selftest = strata::plugin::task<strata::nccl::selftest_all_reduce>,
            .release_benchmarks = strata::plugin::task<strata::nccl::release_collective_benchmarks>,
        };
        fields.benchmarks = strata::nccl::collective_benchmarks(&fields.benchmark_count);
        return strata::plugin::make_descriptor(fields);
    }();
    return &d;
}

}  // namespace

extern "C" STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return descriptor();
}
