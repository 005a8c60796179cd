#include "nccl_tasks.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>

#include "all_reduce.h"
#include "plugin_entry.h"

namespace strata::nccl {

namespace {

// Sums of up to 8 ranks of exactly representable inputs: exact in FP32.
constexpr double kTolerance = 1e-6;

std::string describe(const AllReduce::Check& check) {
    char text[200];
    std::snprintf(text, sizeof text, "largest error %.3g on rank %d at [%zu] (got %.9g, expected %.9g)",
                  check.error, check.rank, check.index, check.got, check.want);
    return text;
}

}  // namespace

void selftest_all_reduce(const plugin::Reporter& report) {
    AllReduce all_reduce(1 << 20, nullptr);
    std::string result;
    bool ok = false;
    if (all_reduce.run()) {
        auto check = all_reduce.verify();
        ok = check.problem.empty() && check.error <= kTolerance;
        result = check.problem.empty() ? describe(check) : check.problem;
    } else {
        result = all_reduce.error();
    }
    std::string what = "all-reduce (sum, 1M floats) across " + std::to_string(all_reduce.ranks()) + " GPU(s)";
    report.check("library.nccl.all_reduce", STRATA_LAYER_LIBRARY,
                 ok ? STRATA_STATUS_PASS : STRATA_STATUS_FAIL,
                 {ok ? what + " verified on every rank" : what + ": " + result, result,
                  ok ? ""
                     : "NCCL_DEBUG=INFO shows the transport NCCL chose; check P2P/NVLink with "
                       "`nvidia-smi topo -m`"});
}

namespace {

struct Config {
    size_t bytes;
    const char* parameters;
};

constexpr std::array<Config, 4> kConfigs = {{
    {size_t{1} << 20, "bytes=1048576,dtype=f32,op=sum,ranks=all_local_gpus"},
    {size_t{16} << 20, "bytes=16777216,dtype=f32,op=sum,ranks=all_local_gpus"},
    {size_t{128} << 20, "bytes=134217728,dtype=f32,op=sum,ranks=all_local_gpus"},
    {size_t{512} << 20, "bytes=536870912,dtype=f32,op=sum,ranks=all_local_gpus"},
}};

std::array<std::unique_ptr<AllReduce>, kConfigs.size()> runs;

// NCCL logs its algorithm choice under NCCL_DEBUG_SUBSYS=TUNING; strata asks
// for that log in a file of its own unless the user set NCCL_DEBUG already.
std::string tuning_log_path() {
    static const std::string path = [] {
        if (std::getenv("NCCL_DEBUG")) return std::string();
        std::string file = "/tmp/strata-nccl-" + std::to_string(::getpid()) + ".log";
        setenv("NCCL_DEBUG", "INFO", 0);
        setenv("NCCL_DEBUG_SUBSYS", "TUNING", 0);
        setenv("NCCL_DEBUG_FILE", file.c_str(), 0);
        return file;
    }();
    return path;
}

// The words after "Algo" in the last tuning line NCCL wrote, e.g. "RING".
std::string chosen_algorithm() {
    std::string path = tuning_log_path();
    if (path.empty()) return "unknown (NCCL_DEBUG set by the user)";
    std::ifstream in(path);
    std::string line, algorithm = "unknown (NCCL logged no tuning line)";
    while (std::getline(in, line)) {
        size_t at = line.find("Algo ");
        if (at == std::string::npos) continue;
        size_t end = line.find_first_of(" ,", at + 5);
        algorithm = line.substr(at + 5, end == std::string::npos ? std::string::npos : end - at - 5);
    }
    return algorithm;
}

template <size_t I>
AllReduce* run_for(const strata_host_api* host, void* stream) {
    tuning_log_path();  // before the communicators exist
    if (!runs[I])
        runs[I] =
            std::make_unique<AllReduce>(kConfigs[I].bytes / sizeof(float), static_cast<cudaStream_t>(stream));
    if (!runs[I]->error().empty()) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, runs[I]->error());
        return nullptr;
    }
    return runs[I].get();
}

template <size_t I>
strata_task_result validate(const strata_host_api* host, void* stream) {
    AllReduce* all_reduce = run_for<I>(host, stream);
    if (!all_reduce || !all_reduce->run()) return STRATA_TASK_FAILED;
    auto check = all_reduce->verify();
    if (!check.problem.empty() || check.error > kTolerance) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, check.problem.empty() ? describe(check) : check.problem);
        return STRATA_TASK_FAILED;
    }
    return STRATA_TASK_OK;
}

template <size_t I>
strata_task_result run(const strata_host_api* host, void* stream, uint64_t iterations, double* elapsed_ms) {
    AllReduce* all_reduce = run_for<I>(host, stream);
    if (!all_reduce || !all_reduce->time(iterations, elapsed_ms)) return STRATA_TASK_FAILED;
    // nccl-tests: algbw = bytes / time; busbw = algbw * 2(n-1)/n for all-reduce.
    plugin::Reporter report(host);
    if (*elapsed_ms > 0 && iterations > 0) {
        double seconds = *elapsed_ms / 1e3 / static_cast<double>(iterations);
        double algbw = static_cast<double>(kConfigs[I].bytes) / seconds / 1e9;
        report.measurement("algbw", algbw, "GB/s");
        report.measurement("busbw", algbw * all_reduce->bus_factor(), "GB/s");
        report.measurement("ranks", all_reduce->ranks(), "count");
    }
    report.log(STRATA_LOG_INFO, "algorithm: " + chosen_algorithm());
    return STRATA_TASK_OK;
}

}  // namespace

const strata_benchmark* all_reduce_benchmarks(size_t* count) {
    return plugin::benchmark_table<kConfigs.size()>(count, [](auto index) {
        constexpr size_t I = decltype(index)::value;
        auto out = plugin::abi_struct<strata_benchmark>();
        out.name = STRATA_STR("nccl/all_reduce");
        out.parameters = plugin::view(kConfigs[I].parameters);
        out.bytes_per_iteration = static_cast<double>(kConfigs[I].bytes);  // algbw; busbw is measured too
        out.flops_per_iteration = 0;
        out.validate = validate<I>;
        out.run = run<I>;
        return out;
    });
}

}  // namespace strata::nccl
