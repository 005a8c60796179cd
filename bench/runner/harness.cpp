#include "harness.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "clock_monitor.h"
#include "levels.h"

namespace strata::bench {

namespace {

std::string text(strata_str s) {
    return {s.data, s.size};
}

void report(const strata_host_api& host, const std::string& id, strata_status status,
            const std::string& summary) {
    strata_check check{};
    check.struct_size = sizeof check;
    check.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    check.abi_minor = STRATA_PLUGIN_ABI_MINOR;
    check.id = {id.data(), id.size()};
    check.layer = STRATA_LAYER_KERNEL;
    check.status = status;
    check.summary = {summary.data(), summary.size()};
    host.emit_check(host.context, &check);
}

// Why no benchmark can run here, in words; empty when a GPU is usable.
std::string gpu_unavailable(int device) {
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc == cudaErrorInsufficientDriver && !dlopen("libcuda.so.1", RTLD_LAZY))
        return "no NVIDIA driver (libcuda.so.1 cannot be loaded)";
    if (rc != cudaSuccess) return std::string(cudaGetErrorName(rc)) + ": " + cudaGetErrorString(rc);
    if (device >= count)
        return "no GPU " + std::to_string(device) + " (" + std::to_string(count) + " present)";
    return {};
}

struct Target {
    const strata_benchmark* benchmark;
    const strata_host_api* host;
    cudaStream_t stream;
    void* flush;  // a buffer twice the L2 size, for cold runs
    size_t flush_bytes;
    bool cold;
    double peak_gbps;  // 0 when unknown
    const ClockMonitor* clocks;
    nvtxDomainHandle_t domain;
    bool ready = false;  // warmed up and validated
    bool broken = false;
    uint64_t batch = 1;
};

void range_push(nvtxDomainHandle_t domain, const std::string& name) {
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = name.c_str();
    nvtxDomainRangePushEx(domain, &attributes);
}

// Warm-up through the full path, validation once, and the hot batch size:
// enough iterations per timed region for about half a millisecond.
bool prepare(Target& t, benchmark::State& state) {
    if (t.ready) return !t.broken;
    t.ready = true;
    double ms = 0;
    if (t.benchmark->run(t.host, t.stream, 2, &ms) != STRATA_TASK_OK) {
        t.broken = true;
        state.SkipWithError("the warm-up run failed (see the worker's log)");
        return false;
    }
    if (t.benchmark->validate && t.benchmark->validate(t.host, t.stream) != STRATA_TASK_OK) {
        t.broken = true;
        state.SkipWithError("validation failed: the output does not match the reference (see the log)");
        return false;
    }
    if (!t.cold && t.benchmark->run(t.host, t.stream, 1, &ms) == STRATA_TASK_OK && ms > 0)
        t.batch = static_cast<uint64_t>(std::clamp(std::ceil(0.5 / ms), 1.0, 1000.0));
    return true;
}

void run_one(benchmark::State& state, Target& t) {
    if (!prepare(t, state)) return;
    ClockSample before = t.clocks->sample();
    range_push(t.domain, text(t.benchmark->name) + (t.cold ? " cold" : " hot"));
    double total_ms = 0;
    uint64_t timed = 0;
    unsigned char fill = 0;
    for (auto _ : state) {
        if (t.cold)
            cudaMemsetAsync(t.flush, ++fill, t.flush_bytes, t.stream);  // not timed: outside the events
        double ms = 0;
        range_push(t.domain, "timed");
        strata_task_result rc = t.benchmark->run(t.host, t.stream, t.batch, &ms);
        nvtxDomainRangePop(t.domain);
        if (rc != STRATA_TASK_OK || !(ms > 0)) {
            state.SkipWithError("a timed run failed");
            break;
        }
        state.SetIterationTime(ms / 1e3 / static_cast<double>(t.batch));
        total_ms += ms / static_cast<double>(t.batch);
        ++timed;
    }
    nvtxDomainRangePop(t.domain);
    ClockSample after = t.clocks->sample();
    using Counter = benchmark::Counter;
    if (t.benchmark->bytes_per_iteration > 0)
        state.counters["bytes_per_second"] =
            Counter(t.benchmark->bytes_per_iteration, Counter::kIsIterationInvariantRate);
    if (t.benchmark->flops_per_iteration > 0)
        state.counters["flops_per_second"] =
            Counter(t.benchmark->flops_per_iteration, Counter::kIsIterationInvariantRate);
    if (timed > 0 && t.peak_gbps > 0 && t.benchmark->bytes_per_iteration > 0) {
        double gbps = t.benchmark->bytes_per_iteration / (total_ms / static_cast<double>(timed) / 1e3) / 1e9;
        state.counters["percent_of_peak_bandwidth"] = 100 * gbps / t.peak_gbps;
    }
    if (before.ok()) state.counters["sm_clock_mhz_before"] = before.sm_mhz;
    if (after.ok()) state.counters["sm_clock_mhz_after"] = after.sm_mhz;
    if (after.limits >= 0) state.counters["clock_limit_reasons"] = after.limits;
    state.SetLabel(std::string(t.cold ? "cold" : "hot") + ", batch " + std::to_string(t.batch));
}

double peak_bandwidth_gbps(int device) {
    int clock_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess)
        return 0;
    return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;  // double data rate
}

}  // namespace

strata_task_result run_benchmarks(const strata_plugin_descriptor& plugin, const strata_host_api& host,
                                  const BenchSettings& settings) {
    std::string plugin_name = text(plugin.name);
    if (std::string why = gpu_unavailable(settings.device); !why.empty()) {
        report(host, "bench." + plugin_name, STRATA_STATUS_SKIP,
               "benchmarks skipped: no usable GPU (" + why + ")");
        return STRATA_TASK_OK;
    }
    if (settings.out_path.empty()) {
        report(host, "bench." + plugin_name, STRATA_STATUS_ERROR, "STRATA_BENCH_OUT is not set");
        return STRATA_TASK_FAILED;
    }
    cudaSetDevice(settings.device);
    cudaStream_t stream = nullptr;
    int l2 = 0;
    cudaStreamCreate(&stream);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, settings.device);
    size_t flush_bytes = std::max<size_t>(2 * static_cast<size_t>(l2), 8u << 20);
    void* flush = nullptr;
    if (cudaMalloc(&flush, flush_bytes) != cudaSuccess) {
        report(host, "bench." + plugin_name, STRATA_STATUS_ERROR, "cannot allocate the L2 flush buffer");
        return STRATA_TASK_FAILED;
    }
    ClockMonitor clocks(settings.device);
    nvtxDomainHandle_t domain = nvtxDomainCreateA("strata");
    double peak = peak_bandwidth_gbps(settings.device);
    int repetitions = settings.repetitions > 0 ? settings.repetitions : level_repetitions(settings.level);

    std::vector<std::unique_ptr<Target>> targets;
    for (size_t i = 0; i < plugin.benchmark_count; ++i) {
        const strata_benchmark& b = plugin.benchmarks[i];
        for (bool cold : {true, false}) {
            if ((cold && !settings.cold) || (!cold && !settings.hot)) continue;
            targets.push_back(std::make_unique<Target>(
                Target{&b, &host, stream, flush, flush_bytes, cold, peak, &clocks, domain}));
            Target* target = targets.back().get();
            std::string name = plugin_name + "/" + text(b.name) + "/" + text(b.parameters) +
                               (cold ? "/mode:cold" : "/mode:hot") +
                               "/device:" + std::to_string(settings.device);
            benchmark::RegisterBenchmark(name.c_str(),
                                         [target](benchmark::State& state) { run_one(state, *target); })
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond)
                ->Repetitions(repetitions)
                ->MinTime(level_min_time_s(settings.level));
        }
    }
    cudaDeviceProp props{};
    cudaGetDeviceProperties(&props, settings.device);
    benchmark::AddCustomContext("strata_plugin", plugin_name);
    benchmark::AddCustomContext("strata_gpu", props.name);
    benchmark::AddCustomContext("strata_clock_policy", clocks.policy());
    benchmark::AddCustomContext("strata_level", settings.level);
    benchmark::AddCustomContext("strata_peak_bandwidth_gbps", std::to_string(peak));
    std::string out = "--benchmark_out=" + settings.out_path;
    std::string filter = "--benchmark_filter=" + settings.filter;
    std::vector<std::string> args = {"strata-bench-runner", out, "--benchmark_out_format=json", filter};
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    int argc = static_cast<int>(argv.size());
    benchmark::Initialize(&argc, argv.data());
    size_t ran = benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    cudaFree(flush);
    cudaStreamDestroy(stream);
    report(host, "bench." + plugin_name, ran > 0 ? STRATA_STATUS_PASS : STRATA_STATUS_SKIP,
           std::to_string(ran) + " benchmark run(s) on GPU " + std::to_string(settings.device) + " (" +
               props.name + "), " + clocks.policy());
    return STRATA_TASK_OK;
}

}  // namespace strata::bench
