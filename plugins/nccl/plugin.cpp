// strata's NCCL plugin: libnccl linked (so the loader's choice is what is
// reported), probed without a GPU, all-reduce verified and timed across every
// local GPU.
#include "strata/plugin.h"

#include "nccl_probe.h"
#include "nccl_tasks.h"

namespace {

strata_task_result probe(const strata_host_api* host) {
    strata::nccl::probe_nccl(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

strata_task_result selftest(const strata_host_api* host) {
    strata::nccl::selftest_all_reduce(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

const strata_plugin_descriptor* descriptor() {
    static const strata_str required[] = {STRATA_STR("libnccl.so.2")};
    static strata_plugin_descriptor d = [] {
        auto out = strata::plugin::abi_struct<strata_plugin_descriptor>();
        out.name = STRATA_STR("nccl");
        out.version = STRATA_STR("1.0");
        out.description =
            STRATA_STR("NCCL: version and file; all-reduce across local GPUs verified and timed");
        out.layer = STRATA_LAYER_LIBRARY;
        out.required_libraries = required;
        out.required_library_count = 1;
        out.probe = probe;
        out.selftest = selftest;
        out.benchmarks = strata::nccl::all_reduce_benchmarks(&out.benchmark_count);
        out.probe_timeout_s = 30;
        out.selftest_timeout_s = 120;
        return out;
    }();
    return &d;
}

}  // namespace

extern "C" STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return descriptor();
}
