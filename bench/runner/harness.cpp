#include "harness.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "clock_monitor.h"
#include "levels.h"
#include "strata_kernels/kernels.h"
#include "timed_loop.h"

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

// The plugin's release_benchmarks, where its descriptor (ABI 1.3 and later) has one.
strata_task_fn release_of(const strata_plugin_descriptor& plugin) {
    constexpr size_t end = offsetof(strata_plugin_descriptor, release_benchmarks) + sizeof(strata_task_fn);
    return plugin.struct_size >= end ? plugin.release_benchmarks : nullptr;
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
    // The cold flush reads twice the L2 (a multiple of 16 bytes) of a buffer
    // written once, here: what it leaves in the L2 is clean.
    size_t flush_bytes = (std::max<size_t>(2 * static_cast<size_t>(l2), 8u << 20) + 15) / 16 * 16;
    void* flush = nullptr;
    unsigned* flush_sink = nullptr;
    if (cudaMalloc(&flush, flush_bytes) != cudaSuccess ||
        cudaMalloc(reinterpret_cast<void**>(&flush_sink), sizeof(unsigned)) != cudaSuccess ||
        cudaMemsetAsync(flush, 0x5a, flush_bytes, stream) != cudaSuccess ||
        cudaStreamSynchronize(stream) != cudaSuccess) {
        report(host, "bench." + plugin_name, STRATA_STATUS_ERROR, "cannot allocate the L2 flush buffer");
        return STRATA_TASK_FAILED;
    }
    ClockMonitor clocks(settings.device);
    nvtxDomainHandle_t domain = nvtxDomainCreateA("strata");
    double peak = peak_bandwidth_gbps(settings.device);
    int repetitions = settings.repetitions > 0 ? settings.repetitions : level_repetitions(settings.level);

    std::vector<std::unique_ptr<TimedTarget>> targets;
    for (size_t i = 0; i < plugin.benchmark_count; ++i) {
        const strata_benchmark& b = plugin.benchmarks[i];
        for (bool cold : {true, false}) {
            if ((cold && !settings.cold) || (!cold && !settings.hot)) continue;
            auto target = std::make_unique<TimedTarget>();
            target->benchmark = &b;
            target->host = &host;
            target->stream = stream;
            target->cold = cold;
            target->flush_l2 = [flush, flush_bytes, flush_sink, stream] {
                kernels::launch_read_through(flush, flush_bytes, flush_sink, stream);
            };
            target->peak_gbps = peak;
            // Streaming kernels: bytes without arithmetic. GEMMs and convolutions
            // count flops; a collective's bytes cross links, not only HBM.
            target->memory_bound =
                b.bytes_per_iteration > 0 && b.flops_per_iteration == 0 && plugin_name != "nccl";
            target->clocks = &clocks;
            target->domain = domain;
            TimedTarget* registered = target.get();
            targets.push_back(std::move(target));
            std::string name = plugin_name + "/" + text(b.name) + "/" + text(b.parameters) +
                               (cold ? "/mode:cold" : "/mode:hot") +
                               "/device:" + std::to_string(settings.device);
            benchmark::RegisterBenchmark(
                name.c_str(), [registered](benchmark::State& state) { run_timed(state, *registered); })
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
    // The plugin frees its handles and buffers while the stream and the
    // context they were made with still exist.
    if (strata_task_fn release = release_of(plugin)) release(&host);
    cudaFree(flush_sink);
    cudaFree(flush);
    cudaStreamDestroy(stream);
    report(host, "bench." + plugin_name, ran > 0 ? STRATA_STATUS_PASS : STRATA_STATUS_SKIP,
           std::to_string(ran) + " benchmark run(s) on GPU " + std::to_string(settings.device) + " (" +
               props.name + "), " + clocks.policy());
    return STRATA_TASK_OK;
}

}  // namespace strata::bench
