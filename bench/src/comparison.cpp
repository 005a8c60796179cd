#include "comparison.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "model/usage_error.h"

namespace strata::bench {

namespace {

// What in a run's context must match for a comparison to mean what it says.
// strata's own files carry the environment record under context.strata; plain
// Google Benchmark files have only their own context.
std::map<std::string, std::string> comparable_context(const Json& context) {
    std::map<std::string, std::string> out;
    auto text = [](const Json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); };
    if (context.contains("library_build_type"))
        out["Google Benchmark build"] = text(context["library_build_type"]);
    if (context.contains("strata") && context["strata"].is_object()) {
        const Json& strata = context["strata"];
        if (strata.contains("clock_policy")) out["clock policy"] = text(strata["clock_policy"]);
        if (strata.contains("environment") && strata["environment"].is_object()) {
            for (const auto& [key, fact] : strata["environment"].items()) {
                bool gpu = key.rfind("device.", 0) == 0 && key.size() > 5 &&
                           (key.find(".name") != std::string::npos ||
                            key.find(".compute_capability") != std::string::npos);
                bool versions = key == "driver.nvml.driver_version" || key == "driver.cuda.version" ||
                                key == "runtime.cudart.version" ||
                                (key.rfind("library.", 0) == 0 && key.size() > 13 &&
                                 key.compare(key.size() - 13, 13, ".version_text") == 0);
                if ((gpu || versions) && fact.is_object() && fact.contains("value"))
                    out[key] = text(fact["value"]);
            }
        }
    }
    return out;
}

std::vector<std::string> context_warnings(const ResultsFile& base, const ResultsFile& next) {
    auto a = comparable_context(base.context), b = comparable_context(next.context);
    std::vector<std::string> out;
    std::set<std::string> keys;
    for (const auto& [key, value] : a) keys.insert(key);
    for (const auto& [key, value] : b) keys.insert(key);
    for (const std::string& key : keys) {
        auto in_a = a.find(key), in_b = b.find(key);
        std::string left = in_a == a.end() ? "(absent)" : in_a->second;
        std::string right = in_b == b.end() ? "(absent)" : in_b->second;
        if (left != right) out.push_back(key + " differs: " + left + " in base, " + right + " in new");
    }
    for (const auto& [label, values] : {std::pair{"base", &a}, std::pair{"new", &b}}) {
        auto build = values->find("Google Benchmark build");
        if (build != values->end() && build->second == "debug")
            out.push_back(std::string("the ") + label + " run used a debug build of Google Benchmark");
    }
    return out;
}

// Median of the repetitions, or the median aggregate when only that was kept.
std::optional<double> centre(const BenchmarkSeries& series) {
    if (!series.samples.empty()) return median(series.samples);
    return series.reported_median_ns;
}

ComparisonRow compare_series(const BenchmarkSeries& base, const BenchmarkSeries& next,
                             const ComparisonOptions& options) {
    ComparisonRow row;
    row.name = base.name;
    row.base_count = base.samples.size();
    row.new_count = next.samples.size();
    if (!base.error.empty() || !next.error.empty()) {
        row.note = "error: " + (!base.error.empty() ? "base: " + base.error : "new: " + next.error);
        return row;
    }
    auto base_centre = centre(base), next_centre = centre(next);
    if (!base_centre || !next_centre || *base_centre <= 0) {
        row.note = "no time to compare";
        return row;
    }
    row.base_ns = *base_centre;
    row.new_ns = *next_centre;
    row.ratio = row.new_ns / row.base_ns;
    if (auto test = mann_whitney_u(base.samples, next.samples);
        test && row.base_count >= 2 && row.new_count >= 2)
        row.p_value = test->p_value;
    if (row.p_value) {
        row.verdict = decide(row.ratio, *row.p_value, options.threshold, options.alpha);
        row.trips_gate =
            options.fail_above && *row.p_value < options.alpha && row.ratio - 1 > *options.fail_above;
    } else {
        row.verdict = std::fabs(row.ratio - 1) <= options.threshold ? Verdict::same : Verdict::inconclusive;
        bool aggregates_only = base.samples.empty() || next.samples.empty();
        row.note = aggregates_only
                       ? "only the median aggregate was kept: no significance test (rerun Google Benchmark "
                         "with --benchmark_repetitions=N and without --benchmark_report_aggregates_only)"
                       : "fewer than 2 repetitions on a side: no significance test (rerun with "
                         "--benchmark_repetitions=N, or strata bench --repetitions N)";
    }
    return row;
}

}  // namespace

Comparison compare_results(const ResultsFile& base, const ResultsFile& next,
                           const ComparisonOptions& options) {
    Comparison out;
    std::vector<double> ratios;
    auto included = [&](const std::string& name) { return !options.include || options.include(name); };
    for (const BenchmarkSeries& series : base.series) {
        if (!included(series.name)) continue;
        const BenchmarkSeries* match = next.find(series.name);
        if (!match) {
            out.only_in_base.push_back(series.name);
            continue;
        }
        ComparisonRow row = compare_series(series, *match, options);
        if (is_load_proof(series.name) && series.error.empty() && match->error.empty()) {
            // Judged on loading (benchmark_results.h): its time is in the total.
            row.verdict = Verdict::same;
            row.trips_gate = false;
            row.note = "loaded on both sides (a JIT proof: its time counts in driver/jit_installed/total)";
            out.rows.push_back(std::move(row));
            continue;
        }
        if (row.ratio > 0 && std::isfinite(row.ratio)) ratios.push_back(row.ratio);
        out.gate_tripped |= row.trips_gate;
        out.rows.push_back(std::move(row));
    }
    for (const BenchmarkSeries& series : next.series)
        if (included(series.name) && !base.find(series.name)) out.only_in_new.push_back(series.name);
    if (out.rows.empty())
        throw UsageError(
            "no benchmark in common between " + base.path + " and " + next.path +
            (options.include ? " that the filter selects" : " (compare runs of the same benchmarks)"));
    out.geometric_mean_ratio = geometric_mean(ratios);
    if (out.geometric_mean_ratio) out.geometric_mean_count = ratios.size();
    out.warnings = context_warnings(base, next);
    return out;
}

std::string p_value_text(const ComparisonRow& row) {
    if (!row.p_value) return "n/a";
    char text[32];
    std::snprintf(text, sizeof text, *row.p_value < 0.001 ? "%.1e" : "%.3f", *row.p_value);
    return text;
}

}  // namespace strata::bench
