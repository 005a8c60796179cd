// The statistics behind `strata compare`, against reference values computed
// once with scipy 1.17.1 (scipy.stats.mannwhitneyu(a, b,
// alternative="two-sided"), default method) and written in here.
#include "statistics.h"

#include <catch2/catch.hpp>

using namespace strata::bench;

namespace {

struct Reference {
    const char* name;
    std::vector<double> a, b;
    double u, p;
    bool exact;
};

std::vector<double> arithmetic(double start, double step, int count) {
    std::vector<double> out;
    for (int i = 0; i < count; ++i) out.push_back(start + step * i);
    return out;
}

std::vector<double> folded(int multiplier) {
    std::vector<double> out;
    for (int i = 0; i < 15; ++i) out.push_back(5.0 + 0.01 * ((i * multiplier) % 17));
    return out;
}

}  // namespace

TEST_CASE("Mann-Whitney U p-values agree with scipy") {
    const std::vector<Reference> references = {
        {"clear_small",
         {1.0, 1.1, 1.2, 1.3, 1.4},
         {2.0, 2.1, 2.2, 2.3, 2.4},
         0.0,
         0.007936507936507936,
         true},
        {"overlap_small", {1, 2, 3, 4, 5}, {1.5, 2.5, 3.5, 4.5, 5.5}, 10.0, 0.6904761904761905, true},
        {"exact_8_vs_10",
         {10.1, 10.3, 10.2, 10.5, 10.4, 10.6, 10.0, 10.7},
         {10.55, 10.65, 10.8, 10.9, 10.45, 11.0, 10.75, 10.85, 10.95, 11.1},
         6.0,
         0.0013711778417660769,
         true},
        {"ties_asymptotic",
         {1, 2, 2, 3, 3, 3, 4, 5, 5, 6},
         {2, 3, 4, 4, 5, 6, 6, 7, 8, 8},
         23.5,
         0.047069540401444114,
         false},
        {"large_shift", arithmetic(100, 0.1, 20), arithmetic(101, 0.1, 20), 50.0, 5.2125496206037515e-05,
         false},
        {"null_large", folded(37), folded(53), 114.5, 0.9503181419577442, false},
    };
    for (const Reference& reference : references) {
        INFO(reference.name);
        auto result = mann_whitney_u(reference.a, reference.b);
        REQUIRE(result);
        CHECK(result->u == Approx(reference.u));
        CHECK(result->exact == reference.exact);
        CHECK(result->p_value == Approx(reference.p).epsilon(1e-9));
    }
}

TEST_CASE("U test edge cases: empty samples, identical values, symmetry") {
    CHECK_FALSE(mann_whitney_u({}, {1.0}));
    auto same = mann_whitney_u({3, 3, 3, 3, 3, 3, 3, 3, 3}, {3, 3, 3, 3, 3, 3, 3, 3, 3});
    REQUIRE(same);
    CHECK(same->p_value == 1.0);
    auto forward = mann_whitney_u({1, 2, 3, 4, 5, 6, 7, 8, 9}, {5, 6, 7, 8, 9, 10, 11, 12, 13});
    auto backward = mann_whitney_u({5, 6, 7, 8, 9, 10, 11, 12, 13}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    CHECK(forward->p_value == Approx(backward->p_value));
    // One sample of 3 against 200: exact, and fast (the small side is the table's inner dimension).
    auto lopsided = mann_whitney_u({1000, 1001, 1002}, arithmetic(0, 1, 200));
    CHECK(lopsided->exact);
    CHECK(lopsided->p_value < 0.02);
    // 8 against 20,000 (the size of a long run): still exact, and it agrees
    // with the normal approximation, which is accurate at this size. The
    // recurrence over both sizes took 42 s here; the q-binomial product is
    // linear in the larger size.
    std::vector<double> many = arithmetic(0, 1, 20000);
    std::vector<double> few = {10000.5, 10001.5, 10002.5, 10003.5, 10004.5, 10005.5, 10006.5, 15000.5};
    auto big = mann_whitney_u(few, many);
    REQUIRE(big);
    CHECK(big->exact);
    double n1 = 8, n2 = 20000;
    double z =
        (std::max(big->u, n1 * n2 - big->u) - n1 * n2 / 2 - 0.5) / std::sqrt(n1 * n2 * (n1 + n2 + 1) / 12);
    CHECK(big->p_value == Approx(std::erfc(z / std::sqrt(2.0))).epsilon(0.05));
}

TEST_CASE("verdicts need significance and a practical difference") {
    // clear: 10% slower, p tiny
    CHECK(decide(1.10, 1e-4, 0.02) == Verdict::slower);
    CHECK(decide(0.90, 1e-4, 0.02) == Verdict::faster);
    // null: no difference
    CHECK(decide(1.001, 0.8, 0.02) == Verdict::same);
    // significant but below the threshold: real, too small to matter
    CHECK(decide(1.01, 1e-6, 0.02) == Verdict::same);
    // large but noisy
    CHECK(decide(1.20, 0.2, 0.02) == Verdict::inconclusive);
    // borderline: just past the threshold and just significant / just not
    CHECK(decide(1.0201, 0.049, 0.02) == Verdict::slower);
    CHECK(decide(1.0201, 0.051, 0.02) == Verdict::inconclusive);
    CHECK(decide(1.0199, 0.001, 0.02) == Verdict::same);
    CHECK(verdict_name(Verdict::inconclusive) == "inconclusive");
}

TEST_CASE("geometric mean and median") {
    CHECK(*geometric_mean({1.0, 4.0}) == Approx(2.0));
    CHECK(*geometric_mean({0.5, 2.0, 1.0}) == Approx(1.0));
    CHECK_FALSE(geometric_mean({}));
    CHECK_FALSE(geometric_mean({1.0, 0.0}));
    CHECK(median({3, 1, 2}) == 2);
    CHECK(median({4, 1, 3, 2}) == 2.5);
}
