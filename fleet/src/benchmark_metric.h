// Which figure of a benchmark a fleet judges, and its values: shared by
// `strata rollout` (base against candidate) and `strata fleet` (node against
// its peers), so both read a record's benchmarks the same way.
#pragma once

#include <string>
#include <vector>

#include "benchmark_results.h"

namespace strata::fleet {

// Whether a metric is better when bigger: rates (…_per_second, bandwidth,
// busbw, FLOP/s, throughput) are; times, latencies and counts of errors are not.
bool bigger_is_better(const std::string& metric);

// The metric judged for one benchmark: `requested` unless it is "auto"; under
// "auto", the first rate counter (busbw, FLOP/s, bytes/s, items/s, then any
// bigger-is-better counter) that every series without an error carries, else
// "real_time".
std::string choose_metric(const std::vector<const bench::BenchmarkSeries*>& all,
                          const std::string& requested);

// The series' positive, finite values of the metric (each repetition; the
// reported median when only aggregates were kept). Times are nanoseconds.
std::vector<double> metric_values(const bench::BenchmarkSeries& series, const std::string& metric);

}  // namespace strata::fleet
