// A run's benchmarks as node_exporter textfile metrics, beside the checks
// (`strata record --prometheus`): per benchmark, the median over its
// repetitions of the time and of each counter, in base units.
#pragma once

#include "benchmark_results.h"
#include "report/prometheus_text.h"

namespace strata::fleet {

void add_benchmark_metrics(PrometheusText& out, const bench::ResultsFile& results);

}  // namespace strata::fleet
