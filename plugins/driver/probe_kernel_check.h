// strata's probe kernel (a[i] = b[i] + 3 c[i]) run through the driver API
// on real elements and checked against the CPU: what proves that a launch
// the driver accepted did its work. The image self-test runs it on each
// image; the launch benchmarks before any timing.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>

#include "driver_api.h"

namespace strata::driver {

struct ProbeKernelCheck {
    std::string problem;           // empty: every element verified
    CUresult code = CUDA_SUCCESS;  // the failing call's result; success for a wrong result
};

// `function` launched on `stream` (nullptr: the legacy default stream) over
// `elements` elements (a multiple of 256), waited for with cuCtxSynchronize.
ProbeKernelCheck check_probe_kernel(const DriverApi& api, CUfunction function, CUstream stream,
                                    size_t elements);

}  // namespace strata::driver
