#include "harness.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "clock_monitor.h"
#include "copy_roof.h"
#include "driver_session.h"
#include "l2_flush.h"
#include "levels.h"
#include "runner_checks.h"
#include "timed_loop.h"

namespace strata::bench {

namespace {

std::string text(strata_str s) {
    return {s.data, s.size};
}

void report(const strata_host_api& host, const std::string& id, strata_status status,
            const std::string& summary) {
    report_check(host, id, STRATA_LAYER_KERNEL, status, summary);
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

// The plugin's strata_benchmark_flags (ABI 1.4 and later; none before).
uint32_t flags_of(const strata_plugin_descriptor& plugin) {
    constexpr size_t end = offsetof(strata_plugin_descriptor, benchmark_flags) + sizeof(uint32_t);
    return plugin.struct_size >= end ? plugin.benchmark_flags : 0;
}

// How many GPUs the plugin's benchmark `i` needs (ABI 1.5 benchmark_gpus; one before).
uint32_t gpus_needed(const strata_plugin_descriptor& plugin, size_t i) {
    constexpr size_t end = offsetof(strata_plugin_descriptor, benchmark_gpus) + sizeof(const uint32_t*);
    if (plugin.struct_size < end || !plugin.benchmark_gpus) return 1;
    return std::max<uint32_t>(plugin.benchmark_gpus[i], 1);
}

// The plugins whose benchmarks run on every GPU of the node at once.
bool spans_all_gpus(const std::string& plugin_name) {
    return plugin_name == "nccl";
}

// Streaming kernels: bytes without arithmetic, where "% of the memory
// bandwidth" means something. GEMMs and convolutions count flops; a
// collective's bytes cross links, not only HBM.
bool is_memory_bound(const strata_benchmark& b, const std::string& plugin_name) {
    return b.bytes_per_iteration > 0 && b.flops_per_iteration == 0 && !spans_all_gpus(plugin_name);
}

double peak_bandwidth_gbps(int device) {
    int clock_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess)
        return 0;
    return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;  // double data rate
}

// What the benchmarks of one plugin run on, however it was set up.
struct Gpu {
    void* stream = nullptr;
    std::string name;
    std::function<void()> flush_l2;  // empty: hot only
    double peak_gbps = 0;
    double copy_roof_gbps = 0;
    int visible = 1;  // GPUs CUDA sees: a benchmark between GPUs needs more than one
};

// Registers every benchmark in the modes the GPU allows, runs them with
// Google Benchmark and writes the JSON. Returns how many ran.
size_t run_registered(const strata_plugin_descriptor& plugin, const strata_host_api& host,
                      const BenchSettings& settings, const Gpu& gpu, const ClockMonitor& clocks) {
    std::string plugin_name = text(plugin.name);
    // Every repetition that starts before this ends in the results file.
    const SteadyClock::time_point stop_at =
        settings.budget_s > 0 ? SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                                         std::chrono::duration<double>(settings.budget_s))
                              : SteadyClock::time_point::max();
    nvtxDomainHandle_t domain = nvtxDomainCreateA("strata");
    int repetitions = settings.repetitions > 0 ? settings.repetitions : level_repetitions(settings.level);
    std::vector<std::unique_ptr<TimedTarget>> targets;
    std::vector<std::string> too_few_gpus;  // benchmarks left out, and why
    for (size_t i = 0; i < plugin.benchmark_count; ++i) {
        const strata_benchmark& b = plugin.benchmarks[i];
        if (uint32_t needed = gpus_needed(plugin, i); needed > static_cast<uint32_t>(gpu.visible)) {
            too_few_gpus.push_back(text(b.name) + "/" + text(b.parameters) + " (needs " +
                                   std::to_string(needed) + " GPUs)");
            continue;
        }
        for (bool cold : {true, false}) {
            if ((cold && (!settings.cold || !gpu.flush_l2)) || (!cold && !settings.hot)) continue;
            auto target = std::make_unique<TimedTarget>();
            target->benchmark = &b;
            target->host = &host;
            target->stream = gpu.stream;
            target->cold = cold;
            target->min_time_s = level_min_time_s(settings.level);
            target->stop_at = stop_at;
            target->flush_l2 = gpu.flush_l2;
            target->peak_gbps = gpu.peak_gbps;
            target->copy_roof_gbps = gpu.copy_roof_gbps;
            target->memory_bound = is_memory_bound(b, plugin_name);
            target->clocks = &clocks;
            target->domain = domain;
            std::string name = plugin_name + "/" + text(b.name) + "/" + text(b.parameters) +
                               (cold ? "/mode:cold" : "/mode:hot") +
                               "/device:" + std::to_string(settings.device);
            register_timed(name, *target, repetitions);
            targets.push_back(std::move(target));
        }
    }
    if (!too_few_gpus.empty()) {
        std::string list;
        for (const std::string& name : too_few_gpus) list += (list.empty() ? "" : ", ") + name;
        // Not an error: this node has fewer GPUs than they need.
        report(host, "bench." + plugin_name + ".needs_gpus", STRATA_STATUS_SKIP,
               std::to_string(too_few_gpus.size()) + " benchmark(s) not run: CUDA sees " +
                   std::to_string(gpu.visible) + " GPU(s): " + list);
    }
    benchmark::AddCustomContext("strata_plugin", plugin_name);
    benchmark::AddCustomContext("strata_gpu", gpu.name);
    benchmark::AddCustomContext("strata_clock_policy", clocks.policy());
    benchmark::AddCustomContext("strata_level", settings.level);
    // What each "% of" counter divides by: the theoretical HBM bandwidth
    // (memory clock x bus width x 2) and the measured device-to-device copy.
    benchmark::AddCustomContext("strata_peak_bandwidth_gbps", std::to_string(gpu.peak_gbps));
    benchmark::AddCustomContext("strata_copy_roof_gbps", std::to_string(gpu.copy_roof_gbps));
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
    return ran;
}

void report_ran(const strata_plugin_descriptor& plugin, const strata_host_api& host,
                const BenchSettings& settings, const Gpu& gpu, const ClockMonitor& clocks, size_t ran) {
    report(host, "bench." + text(plugin.name), ran > 0 ? STRATA_STATUS_PASS : STRATA_STATUS_SKIP,
           std::to_string(ran) + " benchmark run(s) on GPU " + std::to_string(settings.device) + " (" +
               gpu.name + "), " + clocks.policy());
}

// A plugin whose benchmarks call libcuda alone: a driver-API context and
// stream, no CUDA runtime, hot only.
strata_task_result run_driver_api_benchmarks(const strata_plugin_descriptor& plugin,
                                             const strata_host_api& host, const BenchSettings& settings) {
    std::string plugin_name = text(plugin.name);
    DriverSession session(settings.device);
    if (!session.unavailable().empty()) {
        report(host, "bench." + plugin_name, STRATA_STATUS_SKIP,
               "benchmarks skipped: no usable GPU (" + session.unavailable() + ")");
        return STRATA_TASK_OK;
    }
    if (settings.out_path.empty()) {
        report(host, "bench." + plugin_name, STRATA_STATUS_ERROR, "STRATA_BENCH_OUT is not set");
        return STRATA_TASK_FAILED;
    }
    Gpu gpu;
    gpu.stream = session.stream();
    gpu.name = session.device_name();
    gpu.visible = session.device_count();
    ClockMonitor clocks(session.pci_bus_id());
    size_t ran = run_registered(plugin, host, settings, gpu, clocks);
    report_ran(plugin, host, settings, gpu, clocks, ran);
    return STRATA_TASK_OK;
}

}  // namespace

strata_task_result run_benchmarks(const strata_plugin_descriptor& plugin, const strata_host_api& host,
                                  const BenchSettings& settings) {
    if (flags_of(plugin) & STRATA_BENCHMARKS_DRIVER_API)
        return run_driver_api_benchmarks(plugin, host, settings);
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
    cudaStream_t stream = nullptr;
    cudaError_t rc = cudaSetDevice(settings.device);
    if (rc == cudaSuccess) rc = cudaStreamCreate(&stream);
    if (rc != cudaSuccess) {
        report(host, "bench." + plugin_name, STRATA_STATUS_ERROR,
               "cannot use GPU " + std::to_string(settings.device) + ": " + cudaGetErrorName(rc));
        return STRATA_TASK_FAILED;
    }
    // A collective's work is on every GPU of the node: each one's L2 is flushed.
    std::vector<int> flushed = {settings.device};
    if (spans_all_gpus(plugin_name)) {
        int count = 0;
        cudaGetDeviceCount(&count);
        for (int d = 0; d < count; ++d) flushed.push_back(d);
    }
    L2Flush flushes(settings.device, stream, flushed);
    if (!flushes.error().empty()) {
        report(host, "bench." + plugin_name, STRATA_STATUS_ERROR, flushes.error());
        cudaStreamDestroy(stream);
        return STRATA_TASK_FAILED;
    }
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, settings.device) != cudaSuccess) bus[0] = '\0';
    ClockMonitor clocks(bus);
    Gpu gpu;
    gpu.stream = stream;
    gpu.flush_l2 = [&flushes] { flushes.flush(); };
    gpu.peak_gbps = peak_bandwidth_gbps(settings.device);
    // The measured roof, once, where a benchmark is judged against it.
    bool streams = false;
    for (size_t i = 0; i < plugin.benchmark_count; ++i)
        streams |= is_memory_bound(plugin.benchmarks[i], plugin_name);
    gpu.copy_roof_gbps = streams ? measured_copy_roof_gbps(stream) : 0;
    cudaDeviceProp props{};
    cudaGetDeviceProperties(&props, settings.device);
    gpu.name = props.name;
    if (cudaGetDeviceCount(&gpu.visible) != cudaSuccess) gpu.visible = 1;
    size_t ran = run_registered(plugin, host, settings, gpu, clocks);
    cudaStreamDestroy(stream);
    report_ran(plugin, host, settings, gpu, clocks, ran);
    return STRATA_TASK_OK;
}

}  // namespace strata::bench
