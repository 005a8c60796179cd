// Which elements of a GPU result a benchmark's validation compares with its
// CPU reference, and how far off one is. A full reference of a large GEMM
// or convolution takes minutes on the CPU, so validations sample; the
// samples must reach every part of the output. A plain stride of total /
// samples over a column-major 8192 x 8192 C is a multiple of 8192: every
// sample lay in row 0, and a kernel that got every other row wrong passed.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <set>
#include <vector>

namespace strata::plugin {

// Indices into an output of `total` elements laid out in lines of `line`
// elements (a matrix's leading dimension, an image row): about `samples`
// spread by the golden-ratio (Weyl) sequence, which no period of the layout
// lines up with, so they fall on many rows, columns, channels and images
// alike; plus the corners of the first and last line and the last element.
// Every index when samples >= total.
inline std::vector<size_t> output_samples(size_t total, size_t samples, size_t line) {
    std::vector<size_t> out;
    if (total == 0) return out;
    if (samples >= total) {
        out.resize(total);
        std::iota(out.begin(), out.end(), size_t{0});
        return out;
    }
    if (line == 0 || line > total) line = total;
    constexpr double kGoldenFraction = 0.6180339887498949;
    std::set<size_t> chosen = {0, line - 1, total - line, total - 1};
    const size_t wanted = chosen.size() + samples;
    for (size_t i = 1; chosen.size() < wanted && i <= 4 * samples; ++i) {
        double position = static_cast<double>(i) * kGoldenFraction;
        position -= std::floor(position);
        chosen.insert(std::min(total - 1, static_cast<size_t>(position * static_cast<double>(total))));
    }
    out.assign(chosen.begin(), chosen.end());
    return out;
}

// |got - want| relative to |want| (absolute below 1). A NaN or infinite
// result is infinitely wrong: std::max(worst, NaN) would keep `worst`, and
// a kernel writing NaN would pass.
inline double relative_error(double got, double want) {
    double error = std::fabs(got - want) / std::fmax(1.0, std::fabs(want));
    return std::isfinite(error) ? error : INFINITY;
}

}  // namespace strata::plugin
