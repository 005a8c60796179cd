#include "harness.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "clock_monitor.h"
#include "copy_roof.h"
#include "l2_flush.h"
#include "levels.h"
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
    // Every repetition that starts before this ends in the results file.
    const SteadyClock::time_point stop_at =
        settings.budget_s > 0 ? SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                                         std::chrono::duration<double>(settings.budget_s))
                              : SteadyClock::time_point::max();
    ClockMonitor clocks(settings.device);
    nvtxDomainHandle_t domain = nvtxDomainCreateA("strata");
    double peak = peak_bandwidth_gbps(settings.device);
    // The measured roof, once, where a benchmark is judged against it.
    bool streams = false;
    for (size_t i = 0; i < plugin.benchmark_count; ++i)
        streams |= is_memory_bound(plugin.benchmarks[i], plugin_name);
    double copy_roof = streams ? measured_copy_roof_gbps(stream) : 0;
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
            target->min_time_s = level_min_time_s(settings.level);
            target->stop_at = stop_at;
            target->flush_l2 = [&flushes] { flushes.flush(); };
            target->peak_gbps = peak;
            target->copy_roof_gbps = copy_roof;
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
    cudaDeviceProp props{};
    cudaGetDeviceProperties(&props, settings.device);
    benchmark::AddCustomContext("strata_plugin", plugin_name);
    benchmark::AddCustomContext("strata_gpu", props.name);
    benchmark::AddCustomContext("strata_clock_policy", clocks.policy());
    benchmark::AddCustomContext("strata_level", settings.level);
    // What each "% of" counter divides by: the theoretical HBM bandwidth
    // (memory clock x bus width x 2) and the measured device-to-device copy.
    benchmark::AddCustomContext("strata_peak_bandwidth_gbps", std::to_string(peak));
    benchmark::AddCustomContext("strata_copy_roof_gbps", std::to_string(copy_roof));
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
    cudaStreamDestroy(stream);
    report(host, "bench." + plugin_name, ran > 0 ? STRATA_STATUS_PASS : STRATA_STATUS_SKIP,
           std::to_string(ran) + " benchmark run(s) on GPU " + std::to_string(settings.device) + " (" +
               props.name + "), " + clocks.policy());
    return STRATA_TASK_OK;
}

}  // namespace strata::bench
