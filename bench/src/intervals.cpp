#include "intervals.h"

#include <algorithm>
#include <cmath>

#include "ranks.h"
#include "statistics.h"

namespace strata::bench {

namespace {

// Exact null distributions are used up to these sizes; beyond them the
// normal approximation is as good and the exact counts cost too much.
constexpr size_t kExactSignedRankMax = 50;         // scipy's limit for wilcoxon
constexpr size_t kExactMannWhitneyCells = 10'000;  // m * n
// Walsh averages and pairwise differences grow quadratically: larger samples
// are thinned to this many evenly spaced order statistics first (a hostile
// file of a million repetitions must not need a terabyte).
constexpr size_t kMaxSampleForPairs = 2'000;

// Upper-tail quantile of the standard normal: z with P(Z > z) = tail.
double normal_quantile(double tail) {
    double low = 0, high = 40;
    for (int i = 0; i < 200; ++i) {
        double mid = (low + high) / 2;
        (0.5 * std::erfc(mid / std::sqrt(2.0)) > tail ? low : high) = mid;
    }
    return (low + high) / 2;
}

std::vector<double> thinned(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    if (values.size() <= kMaxSampleForPairs) return values;
    std::vector<double> out(kMaxSampleForPairs);
    double step = static_cast<double>(values.size() - 1) / static_cast<double>(kMaxSampleForPairs - 1);
    for (size_t i = 0; i < out.size(); ++i) out[i] = values[static_cast<size_t>(std::lround(i * step))];
    return out;
}

// The largest k >= 1 with P(T <= k - 1) <= (1 - level) / 2 under the exact
// null counts, and the coverage 1 - 2 P(T <= k - 1); k = 0 when none.
std::pair<size_t, double> exact_cut(const std::vector<long double>& counts, double level) {
    long double total = 0;
    for (long double c : counts) total += c;
    double half = (1 - level) / 2;
    long double below = 0;  // P(T <= k - 1) * total
    size_t k = 0;
    for (size_t value = 0; value < counts.size(); ++value) {
        if ((below + counts[value]) / total > half) break;
        below += counts[value];
        k = value + 1;
    }
    return {k, static_cast<double>(1 - 2 * below / total)};
}

// The same from the normal approximation of a statistic with this mean and
// standard deviation.
std::pair<size_t, double> normal_cut(double mean, double sd, double level) {
    double z = normal_quantile((1 - level) / 2);
    double k = std::floor(mean - z * sd);
    if (k < 1) return {0, 0};
    double coverage = 1 - std::erfc((mean - (k - 0.5)) / sd / std::sqrt(2.0));
    return {static_cast<size_t>(k), coverage};
}

ShiftInterval from_sorted(std::vector<double>& values, size_t k, double coverage) {
    size_t n = values.size();
    ShiftInterval out;
    out.estimate = median(values);
    std::nth_element(values.begin(), values.begin() + static_cast<long>(k - 1), values.end());
    out.low = values[k - 1];
    std::nth_element(values.begin(), values.begin() + static_cast<long>(n - k), values.end());
    out.high = values[n - k];
    out.confidence = coverage;
    return out;
}

}  // namespace

std::optional<SignedRankResult> wilcoxon_signed_rank(const std::vector<double>& differences) {
    if (differences.empty()) return std::nullopt;
    size_t zeros = static_cast<size_t>(std::count(differences.begin(), differences.end(), 0.0));
    bool exact = differences.size() <= kExactSignedRankMax && zeros == 0;
    std::vector<double> d;
    for (double x : differences)
        if (exact || x != 0) d.push_back(x);  // the normal approximation drops zeros ("wilcox")
    if (d.empty()) return std::nullopt;       // every difference zero: scipy refuses
    std::vector<double> magnitudes(d.size());
    for (size_t i = 0; i < d.size(); ++i) magnitudes[i] = std::fabs(d[i]);
    double tie_term = 0;
    std::vector<double> ranks = average_ranks(magnitudes, &tie_term);
    double r_plus = 0, r_minus = 0;
    for (size_t i = 0; i < d.size(); ++i) (d[i] > 0 ? r_plus : r_minus) += ranks[i];
    double n = static_cast<double>(d.size());
    double mean = n * (n + 1) / 4;
    SignedRankResult out;
    out.statistic = std::min(r_plus, r_minus);
    out.used = d.size();
    out.exact = exact;
    if (exact) {
        // As scipy: the tail of R+ on its own side, truncated to an integer.
        std::vector<long double> counts = signed_rank_null_counts(d.size());
        long double total = std::pow(2.0L, static_cast<long double>(d.size())), tail = 0;
        auto r = static_cast<size_t>(r_plus);
        if (r_plus > mean)
            for (size_t s = r; s < counts.size(); ++s) tail += counts[s];
        else
            for (size_t s = 0; s <= r && s < counts.size(); ++s) tail += counts[s];
        out.p_value = std::min(1.0, static_cast<double>(2 * tail / total));
        return out;
    }
    double variance = (n * (n + 1) * (2 * n + 1) - tie_term / 2) / 24;
    if (variance <= 0) return out;
    double z = (out.statistic - mean) / std::sqrt(variance);
    out.p_value = std::min(1.0, std::erfc(std::fabs(z) / std::sqrt(2.0)));
    return out;
}

std::optional<ShiftInterval> paired_shift(const std::vector<double>& differences, double level) {
    if (differences.empty()) return std::nullopt;
    std::vector<double> d = thinned(differences);
    size_t n = d.size();
    auto [k, coverage] =
        n <= kExactSignedRankMax
            ? exact_cut(signed_rank_null_counts(n), level)
            : normal_cut(n * (n + 1) / 4.0, std::sqrt(n * (n + 1) * (2.0 * n + 1) / 24), level);
    if (k == 0) return std::nullopt;
    std::vector<double> walsh;
    walsh.reserve(n * (n + 1) / 2);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i; j < n; ++j) walsh.push_back((d[i] + d[j]) / 2);
    return from_sorted(walsh, k, coverage);
}

std::optional<ShiftInterval> two_sample_shift(const std::vector<double>& a, const std::vector<double>& b,
                                              double level) {
    if (a.empty() || b.empty()) return std::nullopt;
    std::vector<double> x = thinned(a), y = thinned(b);
    size_t m = x.size(), n = y.size();
    auto [k, coverage] = m * n <= kExactMannWhitneyCells
                             ? exact_cut(mann_whitney_null_counts(m, n), level)
                             : normal_cut(m * n / 2.0, std::sqrt(m * n * (m + n + 1.0) / 12), level);
    if (k == 0) return std::nullopt;
    std::vector<double> differences;
    differences.reserve(m * n);
    for (double bj : y)
        for (double ai : x) differences.push_back(bj - ai);
    return from_sorted(differences, k, coverage);
}

size_t smallest_paired_sample(double level) {
    for (size_t n = 1; n <= kExactSignedRankMax; ++n)
        if (exact_cut(signed_rank_null_counts(n), level).first > 0) return n;
    return kExactSignedRankMax;
}

size_t smallest_two_sample_size(double level) {
    for (size_t n = 1; n <= 100; ++n)
        if (exact_cut(mann_whitney_null_counts(n, n), level).first > 0) return n;
    return 100;
}

}  // namespace strata::bench
