#include "gemm_tasks.h"

#include <array>
#include <cstdio>
#include <memory>

#include "gemm.h"
#include "kept_state.h"
#include "plugin_entry.h"

namespace strata::cublas {

namespace {

constexpr double kTolerance32 = 1e-4;  // FP32 accumulation over k <= 320 against a double reference
constexpr double kTolerance16 =
    1e-3;  // 16-bit inputs are exact after rounding; FP32 accumulation, split-k order

std::string describe(const GemmProblem::Check& check) {
    char text[200];
    std::snprintf(text, sizeof text, "largest error %.3g at C[%zu] (got %.9g, expected %.9g)", check.error,
                  check.index, check.got, check.want);
    return text;
}

}  // namespace

void selftest_gemms(const plugin::Reporter& report) {
    int count = 0;
    if (cudaError_t rc = cudaGetDeviceCount(&count); rc != cudaSuccess || count == 0) {
        report.check(
            "library.cublas.selftest", STRATA_LAYER_LIBRARY, STRATA_STATUS_SKIP,
            {"no GPU to run cuBLAS on: " + (rc ? plugin::cuda_error_text(rc) : std::string("0 devices"))});
        return;
    }
    for (int device = 0; device < count; ++device) {
        cudaSetDevice(device);
        cudaDeviceProp props{};
        cudaGetDeviceProperties(&props, device);
        std::string gpu = "GPU " + std::to_string(device) + " (" + props.name + ")";
        std::string evidence, failure;
        for (GemmType type : {GemmType::f32, GemmType::f16, GemmType::bf16}) {
            std::string name = std::string(type == GemmType::f32 ? "cublasSgemm" : "cublasLtMatmul") + " " +
                               gemm_type_name(type) + " 256x192x320";
            if (!gemm_type_supported(type, props.major, props.minor)) {
                evidence += name + ": not supported on CC " + std::to_string(props.major) + "." +
                            std::to_string(props.minor) + "\n";
                continue;
            }
            GemmProblem problem(type, 256, 192, 320);
            problem.run(nullptr);
            std::string result;
            bool ok = false;
            if (!problem.error().empty()) {
                result = problem.error();
            } else {
                auto check = problem.verify(size_t(-1));
                ok = check.problem.empty() &&
                     check.error <=
                         (type == GemmType::f32 ? kTolerance32 : kTolerance16) + output_rounding(type);
                result = check.problem.empty() ? describe(check) : check.problem;
            }
            evidence += name + ": " + (ok ? "ok, " : "FAILED, ") + result + "\n";
            if (!ok && failure.empty()) failure = name + ": " + result;
        }
        report.check(
            "library.cublas.gemm", STRATA_LAYER_LIBRARY,
            failure.empty() ? STRATA_STATUS_PASS : STRATA_STATUS_FAIL,
            {failure.empty() ? gpu + ": cuBLAS GEMMs verified against the CPU" : gpu + ": " + failure,
             evidence,
             failure.empty() ? ""
                             : "a wrong GEMM result: check `nvidia-smi -q` for Xid/ECC errors; an "
                               "error status names the cuBLAS call that refused",
             {},
             device});
    }
}

namespace {

struct GemmConfig {
    GemmType type;
    int size;
    const char* name;
    const char* parameters;
};

constexpr std::array<GemmConfig, 6> kConfigs = {{
    {GemmType::f32, 1024, "cublas/sgemm", "m=1024,n=1024,k=1024,dtype=f32"},
    {GemmType::f32, 4096, "cublas/sgemm", "m=4096,n=4096,k=4096,dtype=f32"},
    {GemmType::f16, 4096, "cublaslt/gemm", "m=4096,n=4096,k=4096,dtype=f16,accumulate=f32"},
    {GemmType::f16, 8192, "cublaslt/gemm", "m=8192,n=8192,k=8192,dtype=f16,accumulate=f32"},
    {GemmType::bf16, 4096, "cublaslt/gemm", "m=4096,n=4096,k=4096,dtype=bf16,accumulate=f32"},
    {GemmType::bf16, 8192, "cublaslt/gemm", "m=8192,n=8192,k=8192,dtype=bf16,accumulate=f32"},
}};

// One problem per benchmark, made on first use on the current device and
// kept until release_gemm_benchmarks, so timing never includes allocation.
plugin::KeptState<GemmProblem, kConfigs.size()> problems;

template <size_t I>
GemmProblem* problem_for(const strata_host_api* host) {
    GemmProblem& problem = problems.get(I, [] {
        return std::make_unique<GemmProblem>(kConfigs[I].type, kConfigs[I].size, kConfigs[I].size,
                                             kConfigs[I].size);
    });
    if (!problem.error().empty()) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, problem.error());
        return nullptr;
    }
    return &problem;
}

template <size_t I>
strata_task_result validate(const strata_host_api* host, void* stream) {
    int device = 0;
    cudaDeviceProp props{};
    cudaGetDevice(&device);
    cudaGetDeviceProperties(&props, device);
    if (!gemm_type_supported(kConfigs[I].type, props.major, props.minor)) {
        plugin::Reporter(host).log(STRATA_LOG_WARNING, std::string(gemm_type_name(kConfigs[I].type)) +
                                                           " GEMM is not supported on this GPU");
        return STRATA_TASK_FAILED;
    }
    GemmProblem* problem = problem_for<I>(host);
    if (!problem || !problem->run(static_cast<cudaStream_t>(stream))) return STRATA_TASK_FAILED;
    auto check = problem->verify(256);
    double tolerance =
        (kConfigs[I].type == GemmType::f32 ? kTolerance32 * 4 : kTolerance16 * 4) +  // k up to 8192
        output_rounding(kConfigs[I].type);
    if (!check.problem.empty() || check.error > tolerance) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, check.problem.empty() ? describe(check) : check.problem);
        return STRATA_TASK_FAILED;
    }
    if (kConfigs[I].type != GemmType::f32)
        plugin::Reporter(host).log(
            STRATA_LOG_INFO, "cuBLASLt algorithm uses " +
                                 std::to_string(problem->algorithm_workspace_bytes() >> 10) + " KiB of the " +
                                 std::to_string(problem->workspace_limit_bytes() >> 20) +
                                 " MiB workspace offered");
    return STRATA_TASK_OK;
}

template <size_t I>
strata_task_result run(const strata_host_api* host, void* stream, uint64_t iterations, double* elapsed_ms) {
    GemmProblem* problem = problem_for<I>(host);
    if (!problem) return STRATA_TASK_FAILED;
    auto s = static_cast<cudaStream_t>(stream);
    return plugin::time_on_stream(s, iterations, elapsed_ms, [&] { return problem->run(s); })
               ? STRATA_TASK_OK
               : STRATA_TASK_FAILED;
}

}  // namespace

const strata_benchmark* gemm_benchmarks(size_t* count) {
    return plugin::benchmark_table<kConfigs.size()>(count, [](auto index) {
        constexpr size_t I = decltype(index)::value;
        auto out = plugin::abi_struct<strata_benchmark>();
        out.name = plugin::view(kConfigs[I].name);
        out.parameters = plugin::view(kConfigs[I].parameters);
        double n = kConfigs[I].size;
        double in_bytes = kConfigs[I].type == GemmType::f32 ? 4 : 2;
        out.bytes_per_iteration = 2 * n * n * in_bytes + n * n * 4;
        out.flops_per_iteration = 2 * n * n * n;
        out.validate = validate<I>;
        out.run = run<I>;
        return out;
    });
}

void release_gemm_benchmarks(const plugin::Reporter&) {
    problems.release();
}

}  // namespace strata::cublas
