// The outputs a benchmark's validation compares with its CPU reference
// (issue #41): a plain stride over a column-major 8192 x 8192 GEMM result
// fell in row 0 only, and a NaN result passed the cudart check.
#include "output_samples.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <set>

using strata::plugin::output_samples;
using strata::plugin::relative_error;

TEST_CASE("GEMM samples reach every part of a column-major result") {
    const size_t m = 8192, n = 8192, total = m * n;
    auto samples = output_samples(total, 256, m);
    std::set<size_t> rows, columns;
    for (size_t index : samples) {
        REQUIRE(index < total);
        rows.insert(index % m);
        columns.insert(index / m);
    }
    CHECK(samples.size() >= 256);
    CHECK(samples.size() <= 260);
    CHECK(rows.size() >= 200);     // the old stride: 1 row
    CHECK(columns.size() >= 200);  // and 256 columns
    // The four corners of C and its last element.
    for (size_t corner : {size_t{0}, m - 1, total - m, total - 1})
        CHECK(std::set<size_t>(samples.begin(), samples.end()).count(corner) == 1);
    // A kernel that got only the second half of the rows wrong is caught.
    bool caught = false;
    for (size_t index : samples) caught |= index % m >= m / 2;
    CHECK(caught);
}

TEST_CASE("convolution samples reach many output positions of an NCHW result") {
    const size_t n = 32, k = 64, p = 56, q = 56, total = n * k * p * q;
    auto samples = output_samples(total, 512, q);
    std::set<size_t> positions, images, channels;
    for (size_t index : samples) {
        positions.insert(index % (p * q));
        channels.insert(index / (p * q) % k);
        images.insert(index / (p * q * k));
    }
    CHECK(positions.size() >= 400);  // the old stride: pixel (0, 0) alone in most planes
    CHECK(channels.size() >= 32);
    CHECK(images.size() == n);
}

TEST_CASE("small outputs are checked whole; degenerate shapes stay in range") {
    CHECK(output_samples(10, 100, 5).size() == 10);
    CHECK(output_samples(0, 100, 5).empty());
    for (size_t index : output_samples(1000, 7, 0)) CHECK(index < 1000);
    for (size_t index : output_samples(1000, 7, 5000)) CHECK(index < 1000);
    for (size_t index : output_samples(1 << 20, 4096, 1)) CHECK(index < (1u << 20));
}

TEST_CASE("a NaN or infinite result is infinitely wrong") {
    CHECK(relative_error(2.0, 2.0) == 0.0);
    CHECK(relative_error(0.5, 0.0) == Approx(0.5));
    CHECK(relative_error(110.0, 100.0) == Approx(0.1));
    CHECK(std::isinf(relative_error(std::numeric_limits<double>::quiet_NaN(), 1.0)));
    CHECK(std::isinf(relative_error(std::numeric_limits<double>::infinity(), 1.0)));
    double worst = 0;
    worst = std::max(worst, relative_error(std::nan(""), 1.0));
    CHECK(worst > 1e-4);  // the cudart check's tolerance: NaN no longer passes
}
