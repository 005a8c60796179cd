#include "benchmark_metrics.h"

#include "benchmark_metric.h"
#include "statistics.h"

namespace strata::fleet {

void add_benchmark_metrics(PrometheusText& out, const bench::ResultsFile& results) {
    out.family("strata_benchmark_seconds", "The median time of one iteration of a benchmark");
    out.family("strata_benchmark_repetitions", "How many repetitions the benchmark's figures summarise");
    out.family("strata_benchmark_failed", "1 when the benchmark reported an error, else 0");
    for (const bench::BenchmarkSeries& series : results.series) {
        PrometheusLabels labels = {{"benchmark", series.name}};
        out.sample("strata_benchmark_failed", labels, series.error.empty() ? 0 : 1);
        if (!series.error.empty()) continue;
        std::vector<double> times = metric_values(series, "real_time");
        if (!times.empty()) {
            out.sample("strata_benchmark_seconds", labels, bench::median(times) * 1e-9);
            out.sample("strata_benchmark_repetitions", labels, static_cast<double>(times.size()));
        }
        // Counters keep their own names: Google Benchmark's are already in
        // base units (bytes_per_second, items_per_second), strata's too
        // (busbw_bytes_per_second, flops_per_second).
        for (const auto& [counter, values] : series.counters) {
            std::vector<double> finite = metric_values(series, counter);
            if (finite.empty()) continue;
            std::string name = "strata_benchmark_" + prometheus_name_part(counter);
            out.family(name, "The median of the benchmark's counter " + counter);
            out.sample(name, labels, bench::median(finite));
        }
    }
}

}  // namespace strata::fleet
