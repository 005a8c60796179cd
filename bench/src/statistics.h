// The statistics `strata compare` rests on: the Mann-Whitney U test (two-sided,
// computed as scipy.stats.mannwhitneyu does by default, so results can be
// checked against it), the median, the geometric mean, and the verdict that
// needs both significance and a practical threshold.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace strata::bench {

struct UTestResult {
    double u = 0;        // U of the first sample (scipy's `statistic`)
    double p_value = 1;  // two-sided
    bool exact = false;  // exact distribution, or the normal approximation
};

// scipy's method="auto": the exact distribution when either sample has at
// most 8 values and there are no ties; otherwise the normal approximation
// with tie correction and continuity correction. nullopt if a sample is empty.
std::optional<UTestResult> mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

double median(std::vector<double> values);

// Geometric mean of positive values; nullopt for an empty list or a value <= 0.
std::optional<double> geometric_mean(const std::vector<double>& values);

enum class Verdict { faster, slower, same, inconclusive };
std::string_view verdict_name(Verdict verdict);

// `ratio` is new time / base time (below 1: faster). A difference is real
// when p < alpha; it matters when |ratio - 1| > threshold (0.02 = 2%).
//   significant and beyond the threshold -> faster / slower
//   within the threshold                 -> same (even if significant: too small to matter)
//   beyond the threshold, not significant -> inconclusive (too noisy to tell)
Verdict decide(double ratio, double p_value, double threshold, double alpha = 0.05);

}  // namespace strata::bench
