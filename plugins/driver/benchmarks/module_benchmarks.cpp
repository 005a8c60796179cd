#include "module_benchmarks.h"

#include <cstring>
#include <string>

#include "../image_fit.h"

namespace strata::driver::bench {

namespace {

using kernels::ProbeImage;

const ProbeImage* image_for(const Case& c, const Run& run) {
    int cc = current_compute_capability(run);
    const ProbeImage* image = cc > 0 ? best_image(cc, c.variant == kModulePtx) : nullptr;
    if (!image)
        run.report.log(STRATA_LOG_ERROR, std::string("no ") + (c.variant == kModulePtx ? "PTX" : "cubin") +
                                             " of the probe kernel runs on this GPU (compute capability " +
                                             std::to_string(cc / 10) + "." + std::to_string(cc % 10) + ")");
    return image;
}

// One load with the driver's logs and the JIT's wall time; the module is
// unloaded unless `kept` takes it.
bool load(const Run& run, const ProbeImage& image, float* jit_wall_ms, CUmodule* kept = nullptr) {
    char error_log[4096] = {}, info_log[4096] = {};
    float wall = 0;
    CUjit_option options[] = {CU_JIT_WALL_TIME, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void* values[] = {nullptr, error_log, reinterpret_cast<void*>(sizeof error_log - 1), info_log,
                      reinterpret_cast<void*>(sizeof info_log - 1)};
    CUmodule module = nullptr;
    CUresult rc = run.api.module_load_data_ex(&module, image.data, 5, options, values);
    if (rc != CUDA_SUCCESS) {
        run.report.log(STRATA_LOG_ERROR, std::string("cuModuleLoadDataEx of ") + image.target +
                                             (image.ptx ? " (PTX): " : " (cubin): ") + run.api.describe(rc) +
                                             (error_log[0] ? std::string("; JIT log: ") + error_log : ""));
        return false;
    }
    // The driver writes the float's bits into the option's value slot.
    static_assert(sizeof(void*) >= sizeof(float));
    std::memcpy(&wall, &values[0], sizeof wall);
    if (jit_wall_ms) *jit_wall_ms = wall;
    if (kept)
        *kept = module;
    else
        run.api.module_unload(module);
    return true;
}

struct Loaded {
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    bool tried = false;
};
Loaded loaded;

}  // namespace

bool validate_module_load(const Case& c, const Run& run) {
    const ProbeImage* image = image_for(c, run);
    CUmodule module = nullptr;
    if (!image || !load(run, *image, nullptr, &module)) return false;
    CUfunction function = nullptr;
    bool good = ok(run, run.api.module_get_function(&function, module, kernels::kProbeKernelName),
                   "cuModuleGetFunction");
    run.api.module_unload(module);
    if (good) run.report.log(STRATA_LOG_INFO, std::string(c.name) + ": loads " + image->target);
    return good;
}

bool run_module_load(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms) {
    const ProbeImage* image = image_for(c, run);
    if (!image) return false;
    float wall = 0;
    if (!host_timed(iterations, elapsed_ms, [&] { return load(run, *image, &wall); })) return false;
    if (c.variant == kModulePtx) run.report.measurement("jit_wall_ms", wall, "ms");
    return true;
}

CUfunction probe_function(const Run& run) {
    if (loaded.tried) return loaded.function;
    loaded.tried = true;
    int cc = current_compute_capability(run);
    const ProbeImage* image = best_image(cc, false);
    if (!image) image = best_image(cc, true);
    if (!image) {
        run.report.log(STRATA_LOG_ERROR, "no image of the probe kernel runs on this GPU");
        return nullptr;
    }
    if (!load(run, *image, nullptr, &loaded.module)) return nullptr;
    if (!ok(run, run.api.module_get_function(&loaded.function, loaded.module, kernels::kProbeKernelName),
            "cuModuleGetFunction"))
        loaded.function = nullptr;
    return loaded.function;
}

void release_modules() {
    if (loaded.module) benchmark_api().module_unload(loaded.module);
    loaded = {};
}

}  // namespace strata::driver::bench
