#include "conv_tasks.h"

#include <array>
#include <cstdio>
#include <memory>

#include "convolution.h"
#include "kept_state.h"
#include "plugin_entry.h"

namespace strata::cudnn {

namespace {

constexpr double kTolerance = 1e-4;  // FMA math, FP32 accumulation against a double reference

std::string describe(const Convolution::Check& check) {
    char text[200];
    std::snprintf(text, sizeof text, "largest error %.3g at y[%zu] (got %.9g, expected %.9g)", check.error,
                  check.index, check.got, check.want);
    return text;
}

constexpr ConvShape kSelftestShapes[] = {
    {2, 3, 16, 16, 8, 3, 3, 1, 1},    // RGB input, 3x3, same padding
    {1, 16, 32, 32, 16, 1, 1, 0, 1},  // 1x1 (a GEMM in disguise)
    {4, 8, 15, 15, 4, 5, 5, 2, 2},    // odd size, 5x5, stride 2
};

}  // namespace

void selftest_convolutions(const plugin::Reporter& report) {
    int count = 0;
    if (cudaError_t rc = cudaGetDeviceCount(&count); rc != cudaSuccess || count == 0) {
        report.check(
            "library.cudnn.selftest", STRATA_LAYER_LIBRARY, STRATA_STATUS_SKIP,
            {"no GPU to run cuDNN on: " + (rc ? plugin::cuda_error_text(rc) : std::string("0 devices"))});
        return;
    }
    for (int device = 0; device < count; ++device) {
        cudaSetDevice(device);
        std::string evidence, failure;
        for (const ConvShape& shape : kSelftestShapes) {
            Convolution conv(shape, true);
            conv.run(nullptr);
            std::string result;
            bool ok = false;
            if (!conv.error().empty()) {
                result = conv.error();
            } else {
                auto check = conv.verify(size_t(-1));
                ok = check.problem.empty() && check.error <= kTolerance;
                result = check.problem.empty() ? describe(check) + ", algorithm " + conv.algorithm()
                                               : check.problem;
            }
            evidence += "conv forward " + shape.text() + ": " + (ok ? "ok, " : "FAILED, ") + result + "\n";
            if (!ok && failure.empty()) failure = "conv forward " + shape.text() + ": " + result;
        }
        std::string gpu = "GPU " + std::to_string(device);
        report.check(
            "library.cudnn.convolution", STRATA_LAYER_LIBRARY,
            failure.empty() ? STRATA_STATUS_PASS : STRATA_STATUS_FAIL,
            {failure.empty() ? gpu + ": cuDNN convolutions verified against the CPU" : gpu + ": " + failure,
             evidence,
             failure.empty() ? "" : "see the failing call; `strata explain` takes cuDNN's status text",
             {},
             device});
    }
}

namespace {

struct ConvConfig {
    ConvShape shape;
    const char* parameters;
};

constexpr std::array<ConvConfig, 2> kConfigs = {{
    {{32, 64, 56, 56, 64, 3, 3, 1, 1},
     "n=32,c=64,h=56,w=56,k=64,r=3,s=3,pad=1,stride=1,dtype=f32,math=default"},
    {{32, 256, 14, 14, 256, 3, 3, 1, 1},
     "n=32,c=256,h=14,w=14,k=256,r=3,s=3,pad=1,stride=1,dtype=f32,math=default"},
}};

// Kept until release_convolution_benchmarks, so timing never includes setup.
plugin::KeptState<Convolution, kConfigs.size()> convolutions;

template <size_t I>
Convolution* convolution_for(const strata_host_api* host) {
    Convolution& conv =
        convolutions.get(I, [] { return std::make_unique<Convolution>(kConfigs[I].shape, false); });
    if (!conv.error().empty()) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, conv.error());
        return nullptr;
    }
    return &conv;
}

template <size_t I>
strata_task_result validate(const strata_host_api* host, void* stream) {
    Convolution* conv = convolution_for<I>(host);
    if (!conv || !conv->run(static_cast<cudaStream_t>(stream))) return STRATA_TASK_FAILED;
    auto check = conv->verify(512);
    // Default math may use TF32 on Ampere and newer: 10-bit mantissa inputs.
    if (!check.problem.empty() || check.error > 1e-2) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, check.problem.empty() ? describe(check) : check.problem);
        return STRATA_TASK_FAILED;
    }
    plugin::Reporter(host).log(STRATA_LOG_INFO, std::string("algorithm: ") + conv->algorithm());
    return STRATA_TASK_OK;
}

template <size_t I>
strata_task_result run(const strata_host_api* host, void* stream, uint64_t iterations, double* elapsed_ms) {
    Convolution* conv = convolution_for<I>(host);
    if (!conv) return STRATA_TASK_FAILED;
    auto s = static_cast<cudaStream_t>(stream);
    return plugin::time_on_stream(s, iterations, elapsed_ms, [&] { return conv->run(s); })
               ? STRATA_TASK_OK
               : STRATA_TASK_FAILED;
}

}  // namespace

const strata_benchmark* convolution_benchmarks(size_t* count) {
    return plugin::benchmark_table<kConfigs.size()>(count, [](auto index) {
        constexpr size_t I = decltype(index)::value;
        auto out = plugin::abi_struct<strata_benchmark>();
        out.name = STRATA_STR("cudnn/conv_forward");
        out.parameters = plugin::view(kConfigs[I].parameters);
        out.bytes_per_iteration = kConfigs[I].shape.bytes();
        out.flops_per_iteration = kConfigs[I].shape.flops();
        out.validate = validate<I>;
        out.run = run<I>;
        return out;
    });
}

void release_convolution_benchmarks(const plugin::Reporter&) {
    convolutions.release();
}

}  // namespace strata::cudnn
