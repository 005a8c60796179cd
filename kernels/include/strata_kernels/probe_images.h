// The probe kernel (strata_probe_triad: a[i] = b[i] + scalar * c[i], with
// n as unsigned long long) compiled separately for each architecture in
// STRATA_CUDA_ARCHITECTURES: one cubin per SASS target and the PTX, embedded
// as data. The driver plugin loads each image on its own through the driver
// API, so it can prove each SASS and the PTX JIT path independently.
#pragma once

#include <cstddef>

namespace strata::kernels {

struct ProbeImage {
    const char* target;         // "sm_90" or "compute_120"
    int sm;                     // 90, 120
    bool ptx;                   // PTX text (NUL-terminated) rather than a cubin
    const unsigned char* data;  // what cuModuleLoadData takes
    size_t size;
};

inline constexpr const char* kProbeKernelName = "strata_probe_triad";

const ProbeImage* probe_images(size_t* count);

}  // namespace strata::kernels
