// The benchmark harness: Google Benchmark driving one plugin's benchmarks on
// one GPU, timed by the plugin with CUDA events on the harness's stream
// (manual time). Each benchmark is warmed up through the full path and
// validated once before any timing; it runs `cold` (before every timed
// iteration a kernel reads a buffer twice the L2 size, allocated once, so the
// L2 holds only clean lines; a memset would leave it dirty) and `hot`
// (back to back, batched); the mode is in the name and the label. Counters:
// bytes and FLOP/s from the plugin's declarations, percent of the memory
// bandwidth peak, the SM clock before and after and what limited it (NVML).
// NVTX: one "strata" domain, a range per benchmark and per timed region.
#pragma once

#include "bench_settings.h"
#include "strata/plugin.h"

namespace strata::bench {

// Writes Google Benchmark JSON to settings.out_path; without a usable GPU it
// reports a skip check with the reason and writes nothing.
strata_task_result run_benchmarks(const strata_plugin_descriptor& plugin, const strata_host_api& host,
                                  const BenchSettings& settings);

}  // namespace strata::bench
