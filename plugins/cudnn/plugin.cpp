// strata's cuDNN plugin: libcudnn linked (so the loader's choice is what is
// reported), its sub-libraries checked without a GPU, convolutions verified
// and timed on one.
#include "strata/plugin.h"

#include "conv_tasks.h"
#include "cudnn_probe.h"

namespace {

strata_task_result probe(const strata_host_api* host) {
    strata::cudnn::probe_cudnn(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

strata_task_result selftest(const strata_host_api* host) {
    strata::cudnn::selftest_convolutions(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

const strata_plugin_descriptor* descriptor() {
    static const strata_str required[] = {STRATA_STR("libcudnn.so.9")};
    static strata_plugin_descriptor d = [] {
        auto out = strata::plugin::abi_struct<strata_plugin_descriptor>();
        out.name = STRATA_STR("cudnn");
        out.version = STRATA_STR("1.0");
        out.description =
            STRATA_STR("cuDNN: version, sub-libraries, files; convolution forward verified and timed");
        out.layer = STRATA_LAYER_LIBRARY;
        out.required_libraries = required;
        out.required_library_count = 1;
        out.probe = probe;
        out.selftest = selftest;
        out.benchmarks = strata::cudnn::convolution_benchmarks(&out.benchmark_count);
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
