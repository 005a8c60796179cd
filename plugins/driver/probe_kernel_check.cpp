#include "probe_kernel_check.h"

#include <cmath>
#include <vector>

namespace strata::driver {

ProbeKernelCheck check_probe_kernel(const DriverApi& api, CUfunction function, CUstream stream,
                                    size_t elements) {
    constexpr float kScalar = 3.0f;
    std::vector<float> b(elements), c(elements), got(elements, 0.f), want(elements);
    for (size_t i = 0; i < elements; ++i) {
        b[i] = static_cast<float>(i % 1024) * 0.5f;
        c[i] = static_cast<float>(i % 77) - 38.f;
        want[i] = b[i] + kScalar * c[i];
    }
    const size_t bytes = elements * sizeof(float);
    CUdeviceptr a_dev = 0, b_dev = 0, c_dev = 0;
    auto release = [&] {
        if (a_dev) api.mem_free(a_dev);
        if (b_dev) api.mem_free(b_dev);
        if (c_dev) api.mem_free(c_dev);
    };
    auto fail = [&](const char* call, CUresult code) {
        release();
        return ProbeKernelCheck{std::string(call) + ": " + api.describe(code), code};
    };
    CUresult rc = CUDA_SUCCESS;
    if ((rc = api.mem_alloc(&a_dev, bytes)) != CUDA_SUCCESS) return fail("cuMemAlloc", rc);
    if ((rc = api.mem_alloc(&b_dev, bytes)) != CUDA_SUCCESS) return fail("cuMemAlloc", rc);
    if ((rc = api.mem_alloc(&c_dev, bytes)) != CUDA_SUCCESS) return fail("cuMemAlloc", rc);
    if ((rc = api.memcpy_htod(a_dev, got.data(), bytes)) != CUDA_SUCCESS) return fail("cuMemcpyHtoD", rc);
    if ((rc = api.memcpy_htod(b_dev, b.data(), bytes)) != CUDA_SUCCESS) return fail("cuMemcpyHtoD", rc);
    if ((rc = api.memcpy_htod(c_dev, c.data(), bytes)) != CUDA_SUCCESS) return fail("cuMemcpyHtoD", rc);
    float scalar = kScalar;
    unsigned long long n = elements;
    void* parameters[] = {&a_dev, &b_dev, &c_dev, &scalar, &n};
    rc = api.launch_kernel(function, static_cast<unsigned>(elements / 256), 1, 1, 256, 1, 1, 0, stream,
                           parameters, nullptr);
    if (rc != CUDA_SUCCESS) return fail("cuLaunchKernel", rc);
    if ((rc = api.ctx_synchronize()) != CUDA_SUCCESS) return fail("cuCtxSynchronize", rc);
    if ((rc = api.memcpy_dtoh(got.data(), a_dev, bytes)) != CUDA_SUCCESS) return fail("cuMemcpyDtoH", rc);
    release();
    for (size_t i = 0; i < elements; ++i) {
        if (got[i] == want[i]) continue;  // exact: one fused multiply-add or one rounding, same either way
        if (std::fabs(got[i] - want[i]) <= 1e-6f * std::fmax(1.f, std::fabs(want[i]))) continue;
        return {"wrong result: a[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", expected " +
                    std::to_string(want[i]) +
                    " (the launch returned success but the kernel did not do its work)",
                CUDA_SUCCESS};
    }
    return {};
}

}  // namespace strata::driver
