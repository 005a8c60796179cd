// One benchmark's timed loop inside Google Benchmark: warm-up, validation,
// the hot batch size, the cold runs, and CUDA-event times given to Google
// Benchmark as manual time. Free of CUDA calls of its own (the L2 flush is a
// callback), so it runs under Google Benchmark on a machine without a GPU in
// the tests.
#pragma once

#include <benchmark/benchmark.h>
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "clock_monitor.h"
#include "strata/plugin.h"

namespace strata::bench {

using SteadyClock = std::chrono::steady_clock;

// A cold repetition stops after this many flushed runs even when their
// device time is short of the minimum time: each costs a flush and a host
// synchronisation (50-160 us) however short the kernel, so an empty launch
// would otherwise need ~10^5 runs per repetition at `standard`.
constexpr uint64_t kMaxColdRunsPerRepetition = 2000;
// ...and once its wall time reaches this multiple of the minimum time, so a
// level's repetitions fit the deadline `strata bench` gives the runner.
constexpr double kColdWallPerMinTime = 2.0;
// Records (logs, facts, checks) one target's timed runs may send on to
// strata, all repetitions together: the worker protocol stops a worker at
// 100,000 records, and a run is a few microseconds.
constexpr int kMaxForwardedRecords = 32;

struct TimedTarget {
    const strata_benchmark* benchmark = nullptr;
    const strata_host_api* host = nullptr;
    void* stream = nullptr;
    bool cold = false;
    double min_time_s = 0.02;              // device time per repetition to aim for
    std::function<void()> flush_l2;        // before each cold run, outside the timed region
    double peak_gbps = 0;                  // HBM peak, for memory-bound benchmarks; 0 when unknown
    double copy_roof_gbps = 0;             // measured device-to-device copy; 0 when unknown
    bool memory_bound = false;             // "% of peak bandwidth" means something only for these
    const ClockMonitor* clocks = nullptr;  // may be null
    nvtxDomainHandle_t domain = nullptr;
    // The runner's whole budget: a repetition that would start after it is
    // skipped with the reason, so the results file is still written with
    // every result measured before (the supervisor's deadline would lose all).
    SteadyClock::time_point stop_at = SteadyClock::time_point::max();
    // State across repetitions: Google Benchmark calls the function once per
    // repetition (and more for its iteration estimate).
    bool prepared = false;
    bool broken = false;
    std::string broken_reason;  // with the plugin's last error, where it logged one
    uint64_t batch = 1;         // launches per timed region (hot)
    int forwarded_records = 0;  // of kMaxForwardedRecords
    int dropped_records = 0;
};

// The body of a registered benchmark. A warm-up or validation that fails
// skips every repetition with the reason (Google Benchmark aborts the whole
// program when a benchmark returns without running its loop or skipping).
// Hot runs count `batch` iterations per timed region (KeepRunningBatch), so
// the minimum time is reached in real launches, not in batches. A cold
// repetition is one Google Benchmark iteration holding many flushed runs
// (bounded above), timed as their mean.
void run_timed(benchmark::State& state, TimedTarget& target);

// Registers `target` under `name` with the settings its mode needs (manual
// time; a cold repetition is one iteration, see run_timed).
benchmark::internal::Benchmark* register_timed(const std::string& name, TimedTarget& target, int repetitions);

}  // namespace strata::bench
