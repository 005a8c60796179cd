#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "ranks.h"

namespace strata::bench {

namespace {

// P(U >= u) under the null for sample sizes n1, n2 with no ties. 8 against
// 20,000 repetitions is about a million additions.
double exact_survival(size_t n1, size_t n2, double u) {
    std::vector<long double> counts = mann_whitney_null_counts(n1, n2);
    long double total = 0, tail = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
        total += counts[k];
        if (static_cast<double>(k) >= u - 1e-9) tail += counts[k];
    }
    return static_cast<double>(tail / total);
}

}  // namespace

std::vector<double> average_ranks(const std::vector<double>& pooled, double* tie_term) {
    std::vector<size_t> order(pooled.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return pooled[x] < pooled[y]; });
    std::vector<double> ranks(pooled.size());
    *tie_term = 0;
    for (size_t start = 0; start < order.size();) {
        size_t end = start;
        while (end + 1 < order.size() && pooled[order[end + 1]] == pooled[order[start]]) ++end;
        double rank = (static_cast<double>(start) + static_cast<double>(end)) / 2.0 + 1.0;
        for (size_t i = start; i <= end; ++i) ranks[order[i]] = rank;
        double t = static_cast<double>(end - start + 1);
        *tie_term += t * t * t - t;
        start = end + 1;
    }
    return ranks;
}

std::vector<long double> mann_whitney_null_counts(size_t n1, size_t n2) {
    size_t m = std::min(n1, n2), n = std::max(n1, n2);
    size_t max_u = m * n;
    std::vector<long double> counts(max_u + 1, 0.0L);
    counts[0] = 1;
    for (size_t i = 1; i <= m; ++i) {
        for (size_t k = i; k <= max_u; ++k) counts[k] += counts[k - i];          // divide by (1 - q^i)
        for (size_t k = max_u; k >= n + i; --k) counts[k] -= counts[k - n - i];  // times (1 - q^(n+i))
    }
    return counts;
}

std::vector<long double> signed_rank_null_counts(size_t n) {
    size_t max_sum = n * (n + 1) / 2;
    std::vector<long double> counts(max_sum + 1, 0.0L);
    counts[0] = 1;
    // Adding rank r to the subsets: each sum s gains those that summed to s - r.
    for (size_t r = 1; r <= n; ++r)
        for (size_t s = r * (r + 1) / 2; s >= r; --s) counts[s] += counts[s - r];
    return counts;
}

std::optional<UTestResult> mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.empty() || b.empty()) return std::nullopt;
    std::vector<double> pooled(a);
    pooled.insert(pooled.end(), b.begin(), b.end());
    double tie_term = 0;
    std::vector<double> ranks = average_ranks(pooled, &tie_term);
    double n1 = static_cast<double>(a.size()), n2 = static_cast<double>(b.size()), n = n1 + n2;
    double rank_sum = 0;
    for (size_t i = 0; i < a.size(); ++i) rank_sum += ranks[i];
    UTestResult out;
    out.u = rank_sum - n1 * (n1 + 1) / 2;
    double u_max = std::max(out.u, n1 * n2 - out.u);
    bool ties = tie_term > 0;
    if ((a.size() <= 8 || b.size() <= 8) && !ties) {
        out.exact = true;
        out.p_value = std::min(1.0, 2.0 * exact_survival(a.size(), b.size(), u_max));
        return out;
    }
    double mean = n1 * n2 / 2;
    double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
    if (variance <= 0) return out;  // every value equal: no evidence of a difference, p = 1
    double z = (u_max - mean - 0.5) / std::sqrt(variance);
    out.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));  // 2 * P(Z > z)
    return out;
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::optional<double> geometric_mean(const std::vector<double>& values) {
    if (values.empty()) return std::nullopt;
    double log_sum = 0;
    for (double value : values) {
        if (!(value > 0) || !std::isfinite(value)) return std::nullopt;
        log_sum += std::log(value);
    }
    return std::exp(log_sum / static_cast<double>(values.size()));
}

std::string_view verdict_name(Verdict verdict) {
    switch (verdict) {
        case Verdict::faster: return "faster";
        case Verdict::slower: return "slower";
        case Verdict::same: return "same";
        case Verdict::inconclusive: return "inconclusive";
    }
    return "inconclusive";
}

Verdict decide(double ratio, double p_value, double threshold, double alpha) {
    bool matters = std::fabs(ratio - 1) > threshold;
    if (!matters) return Verdict::same;
    if (p_value >= alpha) return Verdict::inconclusive;
    return ratio < 1 ? Verdict::faster : Verdict::slower;
}

}  // namespace strata::bench
