#include <algorithm>
#include <cmath>
#include <cstring>

#include "strata_kernels/kernels.h"

namespace strata::kernels {

void copy_reference(float* a, const float* b, size_t n) {
    for (size_t i = 0; i < n; ++i) a[i] = b[i];
}

void scale_reference(float* a, const float* b, float scalar, size_t n) {
    for (size_t i = 0; i < n; ++i) a[i] = scalar * b[i];
}

void add_reference(float* a, const float* b, const float* c, size_t n) {
    for (size_t i = 0; i < n; ++i) a[i] = b[i] + c[i];
}

void triad_reference(float* a, const float* b, const float* c, float scalar, size_t n) {
    for (size_t i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

double dot_reference(const float* x, const float* y, size_t n) {
    double sum = 0;
    for (size_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * y[i];
    return sum;
}

double dot_relative_tolerance(size_t n) {
    // Each thread adds ceil(n / (blocks * threads)) terms in order; then
    // log2(threads) levels of tree in each block; then the last block adds
    // ceil(blocks / threads) partials and its tree. A float sum of k terms
    // in order is off by at most (k - 1) * eps relative to the sum of |terms|.
    const double eps = 5.960464477539063e-08;  // 2^-24: float's unit roundoff
    double lanes = static_cast<double>(kDotBlocks) * kDotThreads;
    double sequential = std::ceil(static_cast<double>(n) / lanes);
    double depth = sequential + std::log2(kDotThreads) + std::ceil(double(kDotBlocks) / kDotThreads) +
                   std::log2(kDotThreads);
    // Products are rounded once more; 2x for safety; never tighter than 1e-6.
    return std::max(1e-6, 2.0 * (depth + 1) * eps);
}

void sgemm_reference(const float* a, const float* b, float* c, int m, int n, int k) {
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            double sum = 0;
            for (int i = 0; i < k; ++i)
                sum += static_cast<double>(a[static_cast<size_t>(row) * k + i]) *
                       b[static_cast<size_t>(i) * n + col];
            c[static_cast<size_t>(row) * n + col] = static_cast<float>(sum);
        }
}

void bf16_gemm_reference(const uint16_t* a, const uint16_t* b, float* c, int m, int n, int k) {
    for (int row = 0; row < m; ++row)
        for (int col = 0; col < n; ++col) {
            double sum = 0;
            for (int i = 0; i < k; ++i)
                sum += static_cast<double>(bf16_to_float(a[static_cast<size_t>(row) * k + i])) *
                       bf16_to_float(b[static_cast<size_t>(i) * n + col]);
            c[static_cast<size_t>(row) * n + col] = static_cast<float>(sum);
        }
}

uint16_t float_to_bf16(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if (std::isnan(value)) return 0x7fc0;
    bits += 0x7fff + ((bits >> 16) & 1);  // round to nearest, ties to even
    return static_cast<uint16_t>(bits >> 16);
}

float bf16_to_float(uint16_t bits) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

Mismatch largest_error(const float* got, const float* want, size_t n) {
    Mismatch worst;
    for (size_t i = 0; i < n; ++i) {
        double scale = std::fmax(1.0, std::fabs(static_cast<double>(want[i])));
        double error = std::fabs(static_cast<double>(got[i]) - want[i]) / scale;
        if (std::isnan(error)) error = INFINITY;
        if (error > worst.error || i == 0) worst = {error, i, got[i], want[i]};
    }
    return worst;
}

}  // namespace strata::kernels
