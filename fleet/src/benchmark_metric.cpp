#include "benchmark_metric.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace strata::fleet {

namespace {

const std::vector<const char*> kPreferredRates = {"busbw_bytes_per_second", "busbw", "flops_per_second",
                                                  "bytes_per_second", "items_per_second"};

}  // namespace

bool bigger_is_better(const std::string& metric) {
    std::string m;
    for (char c : metric) m += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto has = [&](const char* part) { return m.find(part) != std::string::npos; };
    if (has("time") || has("latency") || has("error") || has("miss")) return false;
    return has("per_second") || has("_per_s") || has("bw") || has("bandwidth") || has("flops") ||
           has("throughput") || has("ops") || (m.size() >= 4 && m.compare(m.size() - 4, 4, "/sec") == 0);
}

std::string choose_metric(const std::vector<const bench::BenchmarkSeries*>& all,
                          const std::string& requested) {
    if (requested != "auto") return requested;
    auto everywhere = [&](const std::string& counter) {
        for (const bench::BenchmarkSeries* series : all) {
            if (!series->error.empty()) continue;
            auto it = series->counters.find(counter);
            if (it == series->counters.end() || it->second.empty()) return false;
        }
        return true;
    };
    for (const char* counter : kPreferredRates)
        if (everywhere(counter)) return counter;
    if (!all.empty())
        for (const auto& [counter, values] : all.front()->counters)
            if (bigger_is_better(counter) && everywhere(counter)) return counter;
    return "real_time";
}

std::vector<double> metric_values(const bench::BenchmarkSeries& series, const std::string& metric) {
    std::vector<double> values;
    if (metric == "real_time" || metric == "cpu_time") {
        values = series.samples;
        if (values.empty() && series.reported_median_ns) values.push_back(*series.reported_median_ns);
    } else if (auto it = series.counters.find(metric); it != series.counters.end()) {
        values = it->second;
    }
    // Logarithms need positive values; zero or negative ones measure nothing.
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return !(v > 0) || !std::isfinite(v); }),
        values.end());
    return values;
}

}  // namespace strata::fleet
