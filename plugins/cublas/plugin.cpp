// strata's cuBLAS plugin: cuBLAS and cuBLASLt linked (so the loader's choice
// of library is what is reported), probed without a GPU, GEMMs verified and
// timed on one.
#include "strata/plugin.h"

#include "cublas_probe.h"
#include "gemm_tasks.h"

namespace {

strata_task_result probe(const strata_host_api* host) {
    strata::cublas::probe_cublas(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

strata_task_result selftest(const strata_host_api* host) {
    strata::cublas::selftest_gemms(strata::plugin::Reporter(host));
    return STRATA_TASK_OK;
}

const strata_plugin_descriptor* descriptor() {
    static const strata_str required[] = {STRATA_STR("libcublas.so." STRATA_CUDA_MAJOR),
                                          STRATA_STR("libcublasLt.so." STRATA_CUDA_MAJOR)};
    static strata_plugin_descriptor d = [] {
        auto out = strata::plugin::abi_struct<strata_plugin_descriptor>();
        out.name = STRATA_STR("cublas");
        out.version = STRATA_STR("1.0");
        out.description =
            STRATA_STR("cuBLAS and cuBLASLt: versions and files; FP32/FP16/BF16 GEMMs verified and timed");
        out.layer = STRATA_LAYER_LIBRARY;
        out.required_libraries = required;
        out.required_library_count = 2;
        out.probe = probe;
        out.selftest = selftest;
        out.benchmarks = strata::cublas::gemm_benchmarks(&out.benchmark_count);
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
