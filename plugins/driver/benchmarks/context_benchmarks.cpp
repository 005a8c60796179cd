#include "context_benchmarks.h"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

extern char** environ;

namespace strata::driver::bench {

namespace {

// strata-driver-cold-start, in strata's lib/strata/ above this plugin's
// directory (the runner's directory): trusted as the plugin is.
std::string cold_start_helper() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&cold_start_helper), &info) || !info.dli_fname) return {};
    return (std::filesystem::path(info.dli_fname).parent_path().parent_path() / "strata-driver-cold-start")
        .string();
}

// One fresh process's cuInit and first primary-context retain, in ms; false
// with the helper's error logged.
bool cold_start_once(const Run& run, double* init_ms, double* retain_ms) {
    static const std::string helper = cold_start_helper();
    CUdevice device = 0;
    if (!ok(run, run.api.ctx_get_device(&device), "cuCtxGetDevice")) return false;
    int out[2];
    if (helper.empty() || ::pipe(out) != 0) {
        run.report.log(STRATA_LOG_ERROR, "cannot start strata-driver-cold-start: " + helper);
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::string ordinal = std::to_string(device);
    char* argv[] = {const_cast<char*>(helper.c_str()), ordinal.data(), nullptr};
    pid_t pid = 0;
    int spawned = posix_spawn(&pid, helper.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    std::string text;
    char buffer[256];
    for (ssize_t n; spawned == 0 && (n = ::read(out[0], buffer, sizeof buffer)) > 0 && text.size() < 4096;)
        text.append(buffer, static_cast<size_t>(n));
    ::close(out[0]);
    int status = 0;
    if (spawned == 0) ::waitpid(pid, &status, 0);
    long long init_ns = 0, retain_ns = 0;
    if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        std::sscanf(text.c_str(), "%lld %lld", &init_ns, &retain_ns) != 2 || init_ns < 0 || retain_ns < 0) {
        run.report.log(STRATA_LOG_ERROR, "strata-driver-cold-start " + ordinal + " failed (" +
                                             (spawned ? "could not start " + helper
                                                      : "exit " + std::to_string(WEXITSTATUS(status))) +
                                             "; its error is on the worker's stderr)");
        return false;
    }
    *init_ms = static_cast<double>(init_ns) / 1e6;
    *retain_ms = static_cast<double>(retain_ns) / 1e6;
    return true;
}

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

bool validate_cold_start(const Case&, const Run& run) {
    double init_ms = 0, retain_ms = 0;
    return cold_start_once(run, &init_ms, &retain_ms);
}

bool run_cold_start(const Case&, const Run& run, uint64_t iterations, double* elapsed_ms) {
    double total = 0, init_ms = 0, retain_ms = 0;
    for (uint64_t i = 0; i < iterations; ++i) {
        if (!cold_start_once(run, &init_ms, &retain_ms)) return false;
        total += init_ms + retain_ms;
    }
    // The last process's parts, as counters beside the sum.
    run.report.measurement("init_ms", init_ms, "ms");
    run.report.measurement("retain_ms", retain_ms, "ms");
    *elapsed_ms = total;
    return true;
}

}  // namespace strata::driver::bench
