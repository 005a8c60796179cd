// Ranks with ties, and the exact null distributions of the two rank
// statistics strata uses, as counts of equally likely arrangements (index:
// the statistic's value). Shared by the Mann-Whitney test (statistics.cpp)
// and the signed-rank test and shift intervals (intervals.cpp).
#pragma once

#include <cstddef>
#include <vector>

namespace strata::bench {

// Ranks from 1, ties sharing their average rank; *tie_term receives
// sum(t^3 - t) over the groups of t tied values (the variance correction).
std::vector<double> average_ranks(const std::vector<double>& values, double* tie_term);

// Arrangements of samples of sizes n1 and n2 (no ties) with each value of U,
// 0 .. n1 * n2. The counts are the coefficients of the Gaussian binomial
// [n1 + n2 choose m]_q = prod_{i=1..m} (1 - q^(n + i)) / (1 - q^i), m the
// smaller size and n the larger: each factor is one pass over the m * n + 1
// coefficients, all non-negative after every step (nothing large cancels).
std::vector<long double> mann_whitney_null_counts(size_t n1, size_t n2);

// Subsets of {1..n} with each rank sum, 0 .. n(n+1)/2: the signed-rank
// statistic's null distribution times 2^n.
std::vector<long double> signed_rank_null_counts(size_t n);

}  // namespace strata::bench
