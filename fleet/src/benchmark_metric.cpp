#include "benchmark_metric.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <string_view>

#include "model/usage_error.h"

namespace strata::fleet {

namespace {

const std::vector<const char*> kPreferredRates = {"busbw_bytes_per_second", "busbw", "flops_per_second",
                                                  "bytes_per_second", "items_per_second"};

}  // namespace

bool bigger_is_better(const std::string& metric) {
    std::string m;
    for (char c : metric) m += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto has = [&](const char* part) { return m.find(part) != std::string::npos; };
    if (has("time") || has("latency") || has("error") || has("miss") || m.ends_with("_ms") ||
        m.ends_with("_us") || m.ends_with("_ns"))
        return false;
    return has("per_second") || has("_per_s") || has("bw") || has("bandwidth") || has("flops") ||
           has("throughput") || has("ops") || m.ends_with("/sec");
}

MetricChoice choose_metric(const std::vector<const bench::BenchmarkSeries*>& all,
                           const std::string& requested) {
    if (requested != "auto") return {requested, false};
    bool per_cpu_second = false;
    for (const bench::BenchmarkSeries* series : all) {
        if (!series->error.empty() || series->rates_per_wall_second) continue;
        per_cpu_second = true;
        // Set aside only where there was a rate to take: the note says so.
        for (const auto& [counter, values] : series->counters)
            if (bigger_is_better(counter)) return {"real_time", true};
    }
    if (per_cpu_second) return {"real_time", false};
    auto everywhere = [&](const std::string& counter) {
        for (const bench::BenchmarkSeries* series : all) {
            if (!series->error.empty()) continue;
            auto it = series->counters.find(counter);
            if (it == series->counters.end() || it->second.empty()) return false;
        }
        return true;
    };
    for (const char* counter : kPreferredRates)
        if (everywhere(counter)) return {counter, false};
    if (!all.empty())
        for (const auto& [counter, values] : all.front()->counters)
            if (bigger_is_better(counter) && everywhere(counter)) return {counter, false};
    return {"real_time", false};
}

void require_known_metric(const std::string& metric, const std::vector<const bench::ResultsFile*>& files) {
    if (metric == "auto" || metric == "real_time" || metric == "cpu_time") return;
    std::set<std::string> carried;
    bool any_benchmark = false;
    for (const bench::ResultsFile* file : files)
        for (const bench::BenchmarkSeries& series : file->series) {
            any_benchmark = true;
            if (series.counters.count(metric)) return;
            for (const auto& [counter, values] : series.counters) carried.insert(counter);
        }
    if (!any_benchmark) return;  // records of checks alone: nothing to misname
    std::string known = "auto, real_time, cpu_time";
    size_t listed = 0;
    for (const std::string& counter : carried) {
        if (++listed > 12) {
            known += ", ...";
            break;
        }
        known += ", " + counter;
    }
    throw UsageError("--metric '" + metric + "': no benchmark in these records carries it (one of: " + known +
                     ")");
}

const char* const kCpuRatesNote =
    "rate counters of benchmarks without UseRealTime or UseManualTime are per CPU second (Google "
    "Benchmark divides by the thread's CPU time): those benchmarks are judged on real_time (--metric "
    "names another)";

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

std::string quoted_value(const std::string& metric, double value) {
    char text[48];
    if (metric.ends_with("bytes_per_second") || metric == "busbw")
        std::snprintf(text, sizeof text, "%.4g GB/s", value / 1e9);
    else if (metric == "flops_per_second")
        std::snprintf(text, sizeof text, "%.4g TFLOP/s", value / 1e12);
    else if (metric == "real_time" || metric == "cpu_time") {
        // The unit switches where three digits would round to 1000
        // (999.6 ns is "1 us", never "1e+03 ns").
        const char* unit = value >= 999.5e6 ? "s" : value >= 999.5e3 ? "ms" : value >= 999.5 ? "us" : "ns";
        double scaled = value >= 999.5e6   ? value / 1e9
                        : value >= 999.5e3 ? value / 1e6
                        : value >= 999.5   ? value / 1e3
                                           : value;
        std::snprintf(text, sizeof text, "%.3g %s", scaled, unit);
    } else if (metric.ends_with("_ms"))
        std::snprintf(text, sizeof text, "%.3g ms", value);
    else
        std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

std::string_view benchmark_group(std::string_view name) {
    return name.starts_with("driver/") ? "driver-facing" : "kernels and libraries";
}

}  // namespace strata::fleet
