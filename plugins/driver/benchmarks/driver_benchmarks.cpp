#include "driver_benchmarks.h"

#include <array>

#include "context_benchmarks.h"
#include "copy_benchmarks.h"
#include "launch_benchmarks.h"
#include "memory_benchmarks.h"
#include "module_benchmarks.h"
#include "peer_benchmarks.h"
#include "plugin_entry.h"

namespace strata::driver::bench {

namespace {

constexpr size_t KiB = size_t{1} << 10, MiB = size_t{1} << 20, GiB = size_t{1} << 30;
// nvbandwidth's default is 512 MiB; 64 MiB is past every copy engine's
// start-up cost and keeps a quick level quick.
constexpr size_t kCopyBytes = 64 * MiB;

constexpr std::array<Case, 27> kCases = {{
    {"context/cold_start", "process=new", 0, 0, 0, validate_cold_start, run_cold_start},
    {"context/create_destroy", "flags=0", 0, 0, 0, validate_context, run_context},
    {"module/load", "image=cubin", 0, 0, kModuleCubin, validate_module_load, run_module_load},
    {"module/load", "image=ptx,jit_cache=disabled", 0, 0, kModulePtx, validate_module_load, run_module_load},
    {"memory/alloc_free", "bytes=4096", 0, 4 * KiB, kDeviceAlloc, validate_memory, run_memory},
    {"memory/alloc_free", "bytes=2097152", 0, 2 * MiB, kDeviceAlloc, validate_memory, run_memory},
    {"memory/alloc_free", "bytes=67108864", 0, 64 * MiB, kDeviceAlloc, validate_memory, run_memory},
    {"memory/alloc_free", "bytes=1073741824", 0, GiB, kDeviceAlloc, validate_memory, run_memory},
    {"memory/alloc_async_free_async", "bytes=4096,pool=default", 0, 4 * KiB, kPoolAlloc, validate_memory,
     run_memory},
    {"memory/alloc_async_free_async", "bytes=67108864,pool=default", 0, 64 * MiB, kPoolAlloc, validate_memory,
     run_memory},
    {"memory/alloc_async_free_async", "bytes=1073741824,pool=default", 0, GiB, kPoolAlloc, validate_memory,
     run_memory},
    {"memory/host_alloc_free", "bytes=4096", 0, 4 * KiB, kHostAlloc, validate_memory, run_memory},
    {"memory/host_alloc_free", "bytes=67108864", 0, 64 * MiB, kHostAlloc, validate_memory, run_memory},
    {"memory/host_register_unregister", "bytes=2097152", 0, 2 * MiB, kHostRegister, validate_memory,
     run_memory},
    {"memory/host_register_unregister", "bytes=268435456", 0, 256 * MiB, kHostRegister, validate_memory,
     run_memory},
    {"copy/h2d", "bytes=67108864,host=pinned", kCopyBytes, kCopyBytes, kHostToDevicePinned, validate_copy,
     run_copy},
    {"copy/h2d", "bytes=67108864,host=pageable", kCopyBytes, kCopyBytes, kHostToDevicePageable, validate_copy,
     run_copy},
    {"copy/d2h", "bytes=67108864,host=pinned", kCopyBytes, kCopyBytes, kDeviceToHostPinned, validate_copy,
     run_copy},
    {"copy/d2h", "bytes=67108864,host=pageable", kCopyBytes, kCopyBytes, kDeviceToHostPageable, validate_copy,
     run_copy},
    {"copy/d2d", "bytes=67108864,counted=once", kCopyBytes, kCopyBytes, kDeviceToDevice, validate_copy,
     run_copy},
    {"copy/h2d_bidirectional", "bytes=67108864,host=pinned,reported=h2d", kCopyBytes, kCopyBytes,
     kHostToDeviceBidirectional, validate_copy, run_copy},
    {"launch/kernel", "grid=1,block=1,sync=once", 0, 0, kLaunchThroughput, validate_launch, run_launch},
    {"launch/kernel_synchronize", "grid=1,block=1", 0, 0, kLaunchRoundTrip, validate_launch, run_launch},
    {"launch/graph", "nodes=1", 0, 1, kGraphLaunch, validate_launch, run_launch},
    {"launch/graph", "nodes=100", 0, 100, kGraphLaunch, validate_launch, run_launch},
    {"sync/event_record_synchronize", "idle_stream=1", 0, 0, kEventSync, validate_launch, run_launch},
    {"sync/stream_synchronize", "idle_stream=1", 0, 0, kStreamSync, validate_launch, run_launch},
}};

// Between the benchmark GPU and the next one: each needs two GPUs.
constexpr std::array<Case, 5> kPeerCases = {{
    {"copy/peer_read", "bytes=67108864,peer=next,access=enabled", kCopyBytes, kCopyBytes, kPeerReadDirect,
     validate_peer, run_peer},
    {"copy/peer_write", "bytes=67108864,peer=next,access=enabled", kCopyBytes, kCopyBytes, kPeerWriteDirect,
     validate_peer, run_peer},
    {"copy/peer_read", "bytes=67108864,peer=next,access=disabled", kCopyBytes, kCopyBytes, kPeerReadStaged,
     validate_peer, run_peer},
    {"copy/peer_write", "bytes=67108864,peer=next,access=disabled", kCopyBytes, kCopyBytes, kPeerWriteStaged,
     validate_peer, run_peer},
    {"copy/peer_latency", "bytes=4,peer=next,access=enabled", 0, 4, kPeerLatencyDirect, validate_peer,
     run_peer},
}};

constexpr size_t kCount = kCases.size() + kPeerCases.size();

constexpr const Case& case_at(size_t i) {
    return i < kCases.size() ? kCases[i] : kPeerCases[i - kCases.size()];
}

// strata_plugin_descriptor.benchmark_gpus, in the table's order.
constexpr std::array<uint32_t, kCount> kGpus = [] {
    std::array<uint32_t, kCount> out{};
    for (size_t i = 0; i < kCount; ++i) out[i] = i < kCases.size() ? 1 : 2;
    return out;
}();

// The run's tools, or false with the reason logged when libcuda lacks any.
bool usable(const plugin::Reporter& report) {
    const BenchmarkApi& api = benchmark_api();
    if (!api.loaded()) {
        report.log(STRATA_LOG_ERROR, "libcuda.so.1 cannot be loaded: " + api.load_error);
        return false;
    }
    if (!api.missing_text.empty() || !api.can_launch()) {
        report.log(STRATA_LOG_ERROR,
                   "this libcuda lacks entry points the driver benchmarks call: " + api.missing_text +
                       (api.can_launch() ? "" : " (and the self-test's)"));
        return false;
    }
    return true;
}

template <size_t I>
strata_task_result validate(const strata_host_api* host, void* stream) {
    plugin::Reporter report(host);
    if (!usable(report)) return STRATA_TASK_FAILED;
    Run run{report, static_cast<CUstream>(stream), benchmark_api()};
    const Case& c = case_at(I);
    return c.validate(c, run) ? STRATA_TASK_OK : STRATA_TASK_FAILED;
}

template <size_t I>
strata_task_result run(const strata_host_api* host, void* stream, uint64_t iterations, double* elapsed_ms) {
    plugin::Reporter report(host);
    if (!usable(report)) return STRATA_TASK_FAILED;
    Run r{report, static_cast<CUstream>(stream), benchmark_api()};
    const Case& c = case_at(I);
    return c.run(c, r, iterations, elapsed_ms) ? STRATA_TASK_OK : STRATA_TASK_FAILED;
}

}  // namespace

const strata_benchmark* driver_benchmarks(size_t* count) {
    return plugin::benchmark_table<kCount>(count, []<size_t I>(std::integral_constant<size_t, I>) {
        const Case& c = case_at(I);
        auto b = plugin::abi_struct<strata_benchmark>();
        b.name = plugin::view(c.name);
        b.parameters = plugin::view(c.parameters);
        b.bytes_per_iteration = c.bytes;
        b.validate = validate<I>;
        b.run = run<I>;
        return b;
    });
}

const uint32_t* driver_benchmark_gpus() {
    return kGpus.data();
}

strata_task_result release_driver_benchmarks(const strata_host_api*) {
    release_peers();
    release_launches();
    release_modules();
    release_copies();
    release_memory();
    return STRATA_TASK_OK;
}

}  // namespace strata::driver::bench
