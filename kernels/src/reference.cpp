#include "strata_kernels/kernels.h"

namespace strata::kernels {

void triad_reference(float* a, const float* b, const float* c, float scalar, size_t n) {
    for (size_t i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

}  // namespace strata::kernels
