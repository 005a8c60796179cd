// The shift intervals and the signed-rank test behind `strata rollout`, on
// samples small enough to work out by hand. (tests/scripts/rollout_end_to_end.py
// checks the same code against scipy and a bootstrap on larger samples.)
#include "intervals.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace strata::bench;

TEST_CASE("signed-rank test: statistic and exact p-value as scipy computes them") {
    // d = 1..6, all positive: R- = 0, exact two-sided p = 2 / 2^6.
    auto all_up = wilcoxon_signed_rank({1, 2, 3, 4, 5, 6});
    REQUIRE(all_up);
    CHECK(all_up->statistic == 0);
    CHECK(all_up->exact);
    CHECK(all_up->p_value == Approx(2.0 / 64));
    // Mixed signs: ranks of |d| = 1..5, R+ = 1 + 4 + 5 = 10, R- = 5.
    auto mixed = wilcoxon_signed_rank({0.1, -0.2, -0.3, 0.4, 0.5});
    REQUIRE(mixed);
    CHECK(mixed->statistic == 5);
    // A zero switches scipy to the normal approximation and is dropped.
    auto with_zero = wilcoxon_signed_rank({0, 1, 2, 3, 4, 5, 6, 7});
    REQUIRE(with_zero);
    CHECK_FALSE(with_zero->exact);
    CHECK(with_zero->used == 7);
    CHECK_FALSE(wilcoxon_signed_rank({}));
    CHECK_FALSE(wilcoxon_signed_rank({0, 0, 0}));
}

TEST_CASE("paired shift: Walsh averages, and no interval below six pairs at 95%") {
    CHECK(smallest_paired_sample() == 6);
    CHECK_FALSE(paired_shift({1, 2, 3, 4, 5}));
    // n = 6: P(T <= 0) = 1/64 <= 0.025 < P(T <= 1) = 2/64, so k = 1: the
    // interval runs from the smallest Walsh average to the largest.
    auto six = paired_shift({1, 2, 3, 4, 5, 6});
    REQUIRE(six);
    CHECK(six->low == 1);
    CHECK(six->high == 6);
    CHECK(six->estimate == Approx(3.5));
    CHECK(six->confidence == Approx(1 - 2.0 / 64));
    // A constant shift is estimated exactly.
    auto constant = paired_shift(std::vector<double>(20, 0.25));
    REQUIRE(constant);
    CHECK(constant->estimate == 0.25);
    CHECK(constant->low == 0.25);
    CHECK(constant->high == 0.25);
}

TEST_CASE("two-sample shift: pairwise differences, and no interval below C(m+n, m) = 40") {
    CHECK(smallest_two_sample_size() == 4);
    CHECK_FALSE(two_sample_shift({1, 2, 3}, {4, 5, 6}));
    // 4 and 4: P(U <= 0) = 1/70, k = 1 (P(U <= 1) = 2/70 > 0.025): the
    // extreme differences.
    auto four = two_sample_shift({0, 1, 2, 3}, {10, 11, 12, 13});
    REQUIRE(four);
    CHECK(four->estimate == 10);
    CHECK(four->low == 7);
    CHECK(four->high == 13);
    // A shift of b against a: the sign says which way.
    auto down = two_sample_shift({10, 11, 12, 13, 14, 15}, {0, 1, 2, 3, 4, 5});
    REQUIRE(down);
    CHECK(down->estimate == -10);
    CHECK(down->high < 0);
}

TEST_CASE("large samples take the normal approximation and are thinned, not exhausted") {
    std::vector<double> a(50'000), b(60'000);
    for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(static_cast<double>(i)) * 0.01;
    for (size_t i = 0; i < b.size(); ++i) b[i] = 0.05 + std::cos(static_cast<double>(i)) * 0.01;
    auto shift = two_sample_shift(a, b);
    REQUIRE(shift);
    CHECK(shift->estimate == Approx(0.05).margin(0.002));
    CHECK(shift->low < shift->estimate);
    CHECK(shift->high > shift->estimate);
    CHECK(shift->confidence >= 0.94);
    auto paired = paired_shift(b);
    REQUIRE(paired);
    CHECK(paired->estimate == Approx(0.05).margin(0.002));
}
