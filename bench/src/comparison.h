// `strata compare`: pairs the benchmarks of two results files by name (which
// carries parameters, mode and device), and for each says base, new, the
// ratio, the Mann-Whitney p-value over the repetitions and a verdict; then
// the geometric mean of the ratios, warnings about runs that are not
// comparable, and the gate a driver rollout uses.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "benchmark_results.h"
#include "statistics.h"

namespace strata::bench {

struct ComparisonOptions {
    double threshold = 0.02;           // practical difference (2%)
    double alpha = 0.05;               // significance level
    std::optional<double> fail_above;  // gate: slower by more than this fraction, significantly
    // Which benchmarks to compare (all when empty): `compare --filter`.
    std::function<bool(const std::string&)> include;
};

struct ComparisonRow {
    std::string name;
    double base_ns = 0, new_ns = 0;  // medians
    size_t base_count = 0, new_count = 0;
    double ratio = 0;               // new / base
    std::optional<double> p_value;  // none without repetitions on both sides
    Verdict verdict = Verdict::inconclusive;
    std::string note;  // why a row is inconclusive, or an error
    bool trips_gate = false;
};

struct Comparison {
    std::vector<ComparisonRow> rows;
    std::optional<double> geometric_mean_ratio;
    size_t geometric_mean_count = 0;  // the rows with a ratio on both sides
    std::vector<std::string> only_in_base, only_in_new;
    std::vector<std::string> warnings;  // different GPU, driver, libraries, clock policy, debug builds
    bool gate_tripped = false;
};

// A row's p-value as every rendering prints it: "0.130", "1.6e-04", "n/a".
std::string p_value_text(const ComparisonRow& row);

// Throws UsageError when the two files have no benchmark in common (after the
// filter).
Comparison compare_results(const ResultsFile& base, const ResultsFile& next,
                           const ComparisonOptions& options);

}  // namespace strata::bench
