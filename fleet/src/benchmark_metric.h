// Which figure of a benchmark a fleet judges, and its values: shared by
// `strata rollout` (base against candidate) and `strata fleet` (node against
// its peers), so both read a record's benchmarks the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "benchmark_results.h"

namespace strata::fleet {

// Whether a metric is better when bigger: rates (…_per_second, bandwidth,
// busbw, FLOP/s, throughput) are; times (…_time, …_ms, …_us, …_ns), latencies
// and counts of errors are not.
bool bigger_is_better(const std::string& metric);

// The metric judged for one benchmark: `requested` unless it is "auto"; under
// "auto", the first rate counter (busbw, FLOP/s, bytes/s, items/s, then any
// bigger-is-better counter) that every series without an error carries, else
// "real_time". Rates count only where every series' are per wall-clock second
// (BenchmarkSeries::rates_per_wall_second): a plain Google Benchmark file's
// bytes_per_second is per CPU second unless the benchmark used real or manual
// time, and would contradict `compare`, which reads the real time.
struct MetricChoice {
    std::string metric;
    // "auto" passed over a rate counter because it is per CPU second: a
    // report says so (kCpuRatesNote), so the metric judged is no surprise.
    bool cpu_rates_set_aside = false;
};
MetricChoice choose_metric(const std::vector<const bench::BenchmarkSeries*>& all,
                           const std::string& requested);

// Throws UsageError when `metric` (a --metric value) is none of auto,
// real_time, cpu_time and no benchmark of these files carries it as a
// counter: a misspelt name would otherwise judge nothing and pass.
void require_known_metric(const std::string& metric, const std::vector<const bench::ResultsFile*>& files);

// The note a report gives when choose_metric() set CPU-second rates aside.
extern const char* const kCpuRatesNote;

// The series' positive, finite values of the metric (each repetition; the
// reported median when only aggregates were kept). Times are nanoseconds.
std::vector<double> metric_values(const bench::BenchmarkSeries& series, const std::string& metric);

// A value of the metric in the unit people quote: "20.0 GB/s" (bytes and
// busbw per second), "312 TFLOP/s", "4.21 us" or "25.3 ms" (times, which
// metric_values gives in nanoseconds; counters named ..._ms are
// milliseconds already), else the number.
std::string quoted_value(const std::string& metric, double value);

// The report group a benchmark belongs to: "driver-facing" for the driver
// plugin's (what a driver update changes: contexts, module load and JIT,
// allocation, copies, launch and synchronisation), else "kernels and
// libraries" (set by the GPU and the libraries more than by the driver).
std::string_view benchmark_group(std::string_view name);

}  // namespace strata::fleet
