#include "context_benchmarks.h"

namespace strata::driver::bench {

namespace {

// Creates a context (which becomes current), destroys it and makes `primary`
// current again; `made` reports whether the new context was current.
bool create_destroy(const Run& run, CUdevice device, CUcontext primary, bool* made = nullptr) {
    CUcontext context = nullptr, current = nullptr;
    if (!ok(run, run.api.ctx_create(&context, 0, device), "cuCtxCreate")) return false;
    if (made) *made = run.api.ctx_get_current(&current) == CUDA_SUCCESS && current == context;
    return ok(run, run.api.ctx_destroy(context), "cuCtxDestroy") &&
           ok(run, run.api.ctx_set_current(primary), "cuCtxSetCurrent");
}

bool current(const Run& run, CUdevice* device, CUcontext* primary) {
    return ok(run, run.api.ctx_get_current(primary), "cuCtxGetCurrent") &&
           ok(run, run.api.ctx_get_device(device), "cuCtxGetDevice");
}

}  // namespace

bool validate_context(const Case&, const Run& run) {
    CUdevice device = 0;
    CUcontext primary = nullptr;
    bool made = false;
    if (!current(run, &device, &primary) || !create_destroy(run, device, primary, &made)) return false;
    if (!made) run.report.log(STRATA_LOG_ERROR, "cuCtxCreate returned a context that was not made current");
    return made;
}

bool run_context(const Case&, const Run& run, uint64_t iterations, double* elapsed_ms) {
    CUdevice device = 0;
    CUcontext primary = nullptr;
    return current(run, &device, &primary) &&
           host_timed(iterations, elapsed_ms, [&] { return create_destroy(run, device, primary); });
}

}  // namespace strata::driver::bench
