// strata's cuBLAS plugin: cuBLAS and cuBLASLt linked (so the loader's choice
// of library is what is reported), probed without a GPU, GEMMs verified and
// timed on one.
#include "cublas_probe.h"
#include "gemm_tasks.h"
#include "plugin_entry.h"

namespace {

const strata_plugin_descriptor* descriptor() {
    static const strata_str required[] = {STRATA_STR("libcublas.so." STRATA_CUDA_MAJOR),
                                          STRATA_STR("libcublasLt.so." STRATA_CUDA_MAJOR)};
    static const strata_plugin_descriptor d = [] {
        strata::plugin::DescriptorFields fields{
            .name = STRATA_STR("cublas"),
            .description = STRATA_STR(
                "cuBLAS and cuBLASLt: versions and files; FP32/FP16/BF16 GEMMs verified and timed"),
            .layer = STRATA_LAYER_LIBRARY,
            .required_libraries = required,
            .required_library_count = std::size(required),
            .probe = strata::plugin::task<strata::cublas::probe_cublas>,
            .selftest = strata::plugin::task<strata::cublas::selftest_gemms>,
            .release_benchmarks = strata::plugin::task<strata::cublas::release_gemm_benchmarks>,
        };
        fields.benchmarks = strata::cublas::gemm_benchmarks(&fields.benchmark_count);
        return strata::plugin::make_descriptor(fields);
    }();
    return &d;
}

}  // namespace

extern "C" STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return descriptor();
}
