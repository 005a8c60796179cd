#include "benchmark_case.h"

namespace strata::driver::bench {

bool ok(const Run& run, CUresult rc, const char* call) {
    if (rc == CUDA_SUCCESS) return true;
    run.report.log(STRATA_LOG_ERROR, std::string(call) + ": " + run.api.describe(rc));
    return false;
}

int current_compute_capability(const Run& run) {
    CUdevice device = 0;
    int major = 0, minor = 0;
    if (run.api.ctx_get_device(&device) != CUDA_SUCCESS ||
        run.api.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) !=
            CUDA_SUCCESS ||
        run.api.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) !=
            CUDA_SUCCESS)
        return 0;
    return major * 10 + minor;
}

}  // namespace strata::driver::bench
