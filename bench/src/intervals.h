// Distribution-free estimates of a shift, with confidence intervals, for the
// decisions of `strata rollout`: the Wilcoxon signed-rank test on paired
// differences (computed as scipy.stats.wilcoxon does by default, so it can be
// checked against it) and the Hodges-Lehmann estimates with their exact
// intervals — the median of the Walsh averages for paired data, the median of
// all pairwise differences (Moses) for two independent samples. Applied to
// logarithms, a shift is a ratio and its interval a ratio interval.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace strata::bench {

struct SignedRankResult {
    double statistic = 0;  // min(R+, R-), scipy's two-sided `statistic`
    double p_value = 1;    // two-sided
    bool exact = false;    // exact null distribution, or the normal approximation
    size_t used = 0;       // differences left after zeros are dropped
};

// scipy's defaults: zero_method="wilcox" (zeros dropped), no continuity
// correction, method="auto" (exact for n <= 50 without zeros). nullopt when
// there is no difference, or every difference is zero.
std::optional<SignedRankResult> wilcoxon_signed_rank(const std::vector<double>& differences);

struct ShiftInterval {
    double estimate = 0;  // the Hodges-Lehmann estimate
    double low = 0, high = 0;
    double confidence = 0;  // the coverage actually reached (the exact one is >= the level asked)
};

// For paired differences: the median of the Walsh averages (d_i + d_j) / 2,
// i <= j, and the interval between the k-th smallest and the k-th largest,
// k from the signed-rank null distribution. nullopt when the sample is too
// small for the level (n < 6 at 95%).
std::optional<ShiftInterval> paired_shift(const std::vector<double>& differences, double level = 0.95);

// For two independent samples: the shift of `b` against `a` (b - a), the
// median of all pairwise differences, and the interval from the Mann-Whitney
// null distribution. nullopt when the samples are too small for the level
// (C(m + n, m) < 40 at 95%: 4 and 4, or 3 and 5).
std::optional<ShiftInterval> two_sample_shift(const std::vector<double>& a, const std::vector<double>& b,
                                              double level = 0.95);

// The smallest sizes at which an interval exists at `level`: n paired
// differences, or n per side for two samples of equal size.
size_t smallest_paired_sample(double level = 0.95);
size_t smallest_two_sample_size(double level = 0.95);

}  // namespace strata::bench
