// One benchmark's timed loop inside Google Benchmark: warm-up, validation,
// the hot batch size, and the loop itself with CUDA-event times given to
// Google Benchmark as manual time. Free of CUDA calls of its own (the L2
// flush is a callback), so it runs under Google Benchmark on a machine
// without a GPU in the tests.
#pragma once

#include <benchmark/benchmark.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <functional>

#include "clock_monitor.h"
#include "strata/plugin.h"

namespace strata::bench {

struct TimedTarget {
    const strata_benchmark* benchmark = nullptr;
    const strata_host_api* host = nullptr;
    void* stream = nullptr;
    bool cold = false;
    std::function<void()> flush_l2;        // before each cold run, outside the timed region
    double peak_gbps = 0;                  // HBM peak, for memory-bound benchmarks; 0 when unknown
    bool memory_bound = false;             // "% of peak bandwidth" means something only for these
    const ClockMonitor* clocks = nullptr;  // may be null
    nvtxDomainHandle_t domain = nullptr;
    // State across repetitions: Google Benchmark calls the function once per
    // repetition (and more for its iteration estimate).
    bool prepared = false;
    bool broken = false;
    const char* broken_reason = "";
    uint64_t batch = 1;  // launches per timed region (hot)
};

// The body of a registered benchmark. A warm-up or validation that fails
// skips every repetition with the reason (Google Benchmark aborts the whole
// program when a benchmark returns without running its loop or skipping);
// hot runs count `batch` iterations per timed region (KeepRunningBatch), so
// the minimum time is reached in real launches, not in batches.
void run_timed(benchmark::State& state, TimedTarget& target);

}  // namespace strata::bench
