// strata's cuDNN plugin: libcudnn linked (so the loader's choice is what is
// reported), its sub-libraries checked without a GPU, convolutions verified
// and timed on one.
#include "conv_tasks.h"
#include "cudnn_probe.h"
#include "plugin_entry.h"

namespace {

const strata_plugin_descriptor* descriptor() {
    static const strata_str required[] = {STRATA_STR("libcudnn.so.9")};
    static const strata_plugin_descriptor d = [] {
        strata::plugin::DescriptorFields fields{
            .name = STRATA_STR("cudnn"),
            .description =
                STRATA_STR("cuDNN: version, sub-libraries, files; convolution forward verified and timed"),
            .layer = STRATA_LAYER_LIBRARY,
            .required_libraries = required,
            .required_library_count = std::size(required),
            .probe = strata::plugin::task<strata::cudnn::probe_cudnn>,
            .selftest = strata::plugin::task<strata::cudnn::selftest_convolutions>,
            .release_benchmarks = strata::plugin::task<strata::cudnn::release_convolution_benchmarks>,
        };
        fields.benchmarks = strata::cudnn::convolution_benchmarks(&fields.benchmark_count);
        return strata::plugin::make_descriptor(fields);
    }();
    return &d;
}

}  // namespace

extern "C" STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return descriptor();
}
