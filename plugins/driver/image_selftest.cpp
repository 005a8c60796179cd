#include "image_selftest.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "driver_api.h"
#include "image_fit.h"
#include "probe_kernel_check.h"
#include "strata_kernels/probe_images.h"

namespace strata::driver {

namespace {

using kernels::ProbeImage;

constexpr size_t kElements = 1 << 20;

// ".version 9.0" from the PTX header, for the 222 explanation.
std::string ptx_isa(const ProbeImage& image) {
    std::string_view text(reinterpret_cast<const char*>(image.data), image.size);
    size_t at = text.find(".version ");
    if (at == std::string_view::npos) return "unknown";
    size_t end = text.find_first_of("\r\n", at);
    return std::string(text.substr(at + 9, end - at - 9));
}

struct Outcome {
    strata_status status = STRATA_STATUS_PASS;
    std::string text;
    CUresult code = CUDA_SUCCESS;  // the failing call's result, if any
};

// What to do about the first failure, by its CUresult.
std::string remedy_for(CUresult code) {
    switch (code) {
        case CUDA_ERROR_NO_BINARY_FOR_GPU:
            return "rebuild strata with this GPU's architecture in STRATA_CUDA_ARCHITECTURES, keeping PTX "
                   "for "
                   "the newest";
        case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
            return "update the driver to one that supports CUDA " STRATA_BUILD_TOOLKIT
                   " or newer (the toolkit that wrote the PTX), or build SASS for this GPU so no JIT is "
                   "needed";
        case CUDA_ERROR_INVALID_IMAGE:
            return "a driver older than 550.54.14 cannot read ZSTD-compressed images: update the driver, or "
                   "rebuild with `nvcc --compress-mode=none` (or `default`, LZ4); if the driver is newer, "
                   "the "
                   "image is corrupt: rebuild it";
        case CUDA_SUCCESS:
            return "the driver accepted the launch but the kernel did not compute the right result: check "
                   "`nvidia-smi -q` for Xid errors and ECC faults, then reset or replace the GPU";
        default: return "see the error: `strata explain` takes the text too";
    }
}

class DeviceRun {
public:
    DeviceRun(const DriverApi& api, const plugin::Reporter& report, int ordinal, int cc)
        : api_(api), report_(report), ordinal_(ordinal), cc_(cc) {}

    Outcome run(const ProbeImage& image) {
        CUmodule module = nullptr;
        char log[4096] = {};
        CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void* values[] = {log, reinterpret_cast<void*>(sizeof log)};
        auto started = std::chrono::steady_clock::now();
        CUresult rc = api_.module_load_data_ex(&module, image.data, 2, options, values);
        double load_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        if (rc != CUDA_SUCCESS) return load_failure(image, rc, log);
        report_.measurement(
            "gpu" + std::to_string(ordinal_) + "." + image.target + (image.ptx ? ".jit_ms" : ".load_ms"),
            load_ms, "ms");
        Outcome outcome = launch_and_verify(module);
        api_.module_unload(module);
        if (outcome.status == STRATA_STATUS_PASS && image.ptx)
            outcome.text =
                "JIT " + std::to_string(static_cast<int>(std::lround(load_ms))) + " ms, " + outcome.text;
        return outcome;
    }

    // Loads and unloads without launching; returns the driver's answer.
    std::string load_only(const ProbeImage& image) {
        CUmodule module = nullptr;
        CUresult rc = api_.module_load_data_ex(&module, image.data, 0, nullptr, nullptr);
        if (rc == CUDA_SUCCESS) api_.module_unload(module);
        return rc == CUDA_SUCCESS ? "loaded" : api_.describe(rc);
    }

private:
    Outcome load_failure(const ProbeImage& image, CUresult rc, const char* log) {
        std::string what = api_.describe(rc);
        if (rc == CUDA_ERROR_UNSUPPORTED_PTX_VERSION && image.ptx)
            what += "; the PTX is ISA " + ptx_isa(image) +
                    " from CUDA " STRATA_BUILD_TOOLKIT ", newer than this driver's JIT accepts";
        else if (rc == CUDA_ERROR_NO_BINARY_FOR_GPU)
            what += "; the image targets " + std::string(image.target) + ", the GPU is CC " +
                    std::to_string(cc_ / 10) + "." + std::to_string(cc_ % 10);
        else if (rc == CUDA_ERROR_INVALID_IMAGE)
            what +=
                "; the driver cannot read this image (a corrupt or compressed image, e.g. ZSTD, that needs "
                "a newer driver)";
        if (*log) what += "; JIT log: " + std::string(log);
        return {STRATA_STATUS_FAIL, "load failed: " + what, rc};
    }

    Outcome launch_and_verify(CUmodule module) {
        CUfunction function = nullptr;
        CUresult rc = api_.module_get_function(&function, module, kernels::kProbeKernelName);
        if (rc != CUDA_SUCCESS) return {STRATA_STATUS_FAIL, "cuModuleGetFunction: " + api_.describe(rc), rc};
        ProbeKernelCheck check = check_probe_kernel(api_, function, nullptr, kElements);
        if (!check.problem.empty()) return {STRATA_STATUS_FAIL, check.problem, check.code};
        return {STRATA_STATUS_PASS, std::to_string(kElements) + " elements verified"};
    }

    const DriverApi& api_;
    const plugin::Reporter& report_;
    int ordinal_;
    int cc_;
};

void test_device(const DriverApi& api, const plugin::Reporter& report, int ordinal) {
    std::string gpu = "GPU " + std::to_string(ordinal);
    const std::string id = "kernel.driver_images";  // the GPU goes in the check's device field
    CUdevice device = 0;
    int major = 0, minor = 0;
    CUresult rc = api.device_get(&device, ordinal);
    if (rc == CUDA_SUCCESS)
        rc = api.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    if (rc == CUDA_SUCCESS)
        rc = api.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    CUcontext context = nullptr;
    bool retained = false;
    if (rc == CUDA_SUCCESS) retained = (rc = api.primary_ctx_retain(&context, device)) == CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS) rc = api.ctx_set_current(context);
    if (rc != CUDA_SUCCESS) {
        // A context retained but not made current is still held (issue #16: it leaked).
        if (retained) api.primary_ctx_release(device);
        report.check(id, STRATA_LAYER_KERNEL, STRATA_STATUS_FAIL,
                     {gpu + ": cannot create a context: " + api.describe(rc),
                      "",
                      "check `nvidia-smi` for this GPU",
                      {},
                      ordinal});
        return;
    }
    int cc = major * 10 + minor;
    std::string cc_text = std::to_string(major) + "." + std::to_string(minor);
    size_t count = 0;
    const ProbeImage* images = kernels::probe_images(&count);
    std::string evidence, first_failure;
    size_t runnable = 0, passed = 0;
    bool sass_passed = false, ptx_passed = false;
    DeviceRun run(api, report, ordinal, cc);
    CUresult first_code = CUDA_SUCCESS;
    std::string refused, refusal;
    for (size_t i = 0; i < count; ++i) {
        const ProbeImage& image = images[i];
        std::string label = std::string(image.target) + (image.ptx ? " (PTX)" : " (SASS)");
        if (!runs_on(image, cc)) {
            // Not for this GPU: the driver should refuse it. Ask anyway, so a
            // GPU that no image covers is reported with the driver's own answer.
            refused += (refused.empty() ? "" : " ") + std::string(image.target);
            refusal = run.load_only(image);
            continue;
        }
        ++runnable;
        Outcome outcome = run.run(image);
        evidence += (evidence.empty() ? "" : "\n") + label + ": " +
                    (outcome.status == STRATA_STATUS_PASS ? "ok, " : "") + outcome.text;
        if (outcome.status == STRATA_STATUS_PASS) {
            ++passed;
            (image.ptx ? ptx_passed : sass_passed) = true;
        } else if (first_failure.empty()) {
            first_failure = std::string(image.target) + ": " + outcome.text;
            first_code = outcome.code;
        }
    }
    api.primary_ctx_release(device);
    if (!refused.empty())
        evidence += (evidence.empty() ? "" : "\n") + std::string("not for CC ") + cc_text +
                    ", not launched: " + refused + " (driver: " + refusal + ")";
    if (runnable == 0) {
        report.check(id, STRATA_LAYER_KERNEL, STRATA_STATUS_FAIL,
                     {gpu + " (CC " + cc_text +
                          "): no image of strata's probe kernel can run on it; the driver says " + refusal,
                      evidence,
                      "CC " + cc_text +
                          " is not covered by STRATA_CUDA_ARCHITECTURES: rebuild strata with it (a "
                          "toolkit too new to target it needs an older toolkit and driver)",
                      {},
                      ordinal});
        return;
    }
    if (passed < runnable) {
        report.check(
            id, STRATA_LAYER_KERNEL, STRATA_STATUS_FAIL,
            {gpu + " (CC " + cc_text + "): " + first_failure, evidence, remedy_for(first_code), {}, ordinal});
        return;
    }
    std::string paths = sass_passed && ptx_passed ? "native SASS and the PTX JIT path both run"
                        : sass_passed             ? "native SASS runs (no PTX image applies to this GPU)"
                                                  : "only the PTX JIT path runs (no SASS for this GPU)";
    report.check(
        id, STRATA_LAYER_KERNEL, sass_passed ? STRATA_STATUS_PASS : STRATA_STATUS_WARN,
        {gpu + " (CC " + cc_text + "): " + paths + ", results verified",
         evidence,
         sass_passed ? "" : "rebuild strata with this GPU's architecture to avoid the first-launch JIT",
         {},
         ordinal});
}

}  // namespace

void selftest_images(const plugin::Reporter& report) {
    DriverApi api = open_driver_api();
    if (!api.loaded() || !api.can_launch()) {
        report.check("kernel.driver_images", STRATA_LAYER_KERNEL, STRATA_STATUS_SKIP,
                     {api.loaded() ? "this libcuda lacks entry points the image test needs"
                                   : "libcuda.so.1 not loadable",
                      api.loaded() ? "" : api.load_error});
        return;
    }
    // The driver keeps JIT results in its compute cache (~/.nv/ComputeCache)
    // across processes, so a second run would time a cache lookup, not a JIT.
    // It reads CUDA_CACHE_DISABLE when it initialises: set first, in this
    // worker process only.
    setenv("CUDA_CACHE_DISABLE", "1", 1);
    CUresult rc = api.init(0);
    int count = 0;
    if (rc == CUDA_SUCCESS) rc = api.device_get_count(&count);
    if (rc != CUDA_SUCCESS || count == 0) {
        report.check("kernel.driver_images", STRATA_LAYER_KERNEL, STRATA_STATUS_SKIP,
                     {"no GPU to load kernels on: " +
                      (rc != CUDA_SUCCESS ? api.describe(rc) : std::string("0 devices"))});
        return;
    }
    for (int ordinal = 0; ordinal < count; ++ordinal) test_device(api, report, ordinal);
}

}  // namespace strata::driver
