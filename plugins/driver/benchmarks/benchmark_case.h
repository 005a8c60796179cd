// One driver-facing benchmark, and the tools every group uses: errors in
// words, a host clock and CUDA events on the harness's stream.
#pragma once

#include <cuda.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "benchmark_api.h"
#include "reporter.h"

namespace strata::driver::bench {

// What a benchmark function is given: the worker's reporter, the harness's
// stream (a CUstream on the current context) and libcuda.
struct Run {
    const plugin::Reporter& report;
    CUstream stream;
    const BenchmarkApi& api;
};

struct Case;
using ValidateFn = bool (*)(const Case&, const Run&);
using RunFn = bool (*)(const Case&, const Run&, uint64_t iterations, double* elapsed_ms);

struct Case {
    const char* name;        // "copy/h2d"
    const char* parameters;  // "bytes=67108864,host=pinned"
    double bytes;            // per iteration, as nvbandwidth counts them; 0 for latencies
    size_t size;             // the bytes one call moves or allocates
    int variant;             // which form of the group's benchmark
    ValidateFn validate;     // before any timing
    RunFn run;
};

// False, with "call: CUDA_ERROR_... (n): text" logged, unless rc is success.
bool ok(const Run& run, CUresult rc, const char* call);

// Host time of `iterations` calls of `body` (returning false stops with
// false): for latencies the host sees, where the driver's own CPU work is
// the quantity.
template <typename Body>
bool host_timed(uint64_t iterations, double* elapsed_ms, Body&& body) {
    auto start = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < iterations; ++i)
        if (!body()) return false;
    *elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return true;
}

// Host time of `iterations` calls of `body` and of the one
// cuStreamSynchronize that ends the work they enqueued: for stream-ordered
// calls (launches, pooled allocations), which cost what the stream takes to
// do them.
template <typename Body>
bool host_timed_to_completion(const Run& run, uint64_t iterations, double* elapsed_ms, Body&& body) {
    return host_timed(1, elapsed_ms, [&] {
        for (uint64_t i = 0; i < iterations; ++i)
            if (!body()) return false;
        return ok(run, run.api.stream_synchronize(run.stream), "cuStreamSynchronize");
    });
}

// Device time, between two events on the run's stream, of the work `body`
// enqueues `iterations` times: for copies and kernels, whose cost is on the GPU.
template <typename Body>
bool event_timed(const Run& run, uint64_t iterations, double* elapsed_ms, Body&& body) {
    CUevent start = nullptr, stop = nullptr;
    bool good = ok(run, run.api.event_create(&start, CU_EVENT_DEFAULT), "cuEventCreate") &&
                ok(run, run.api.event_create(&stop, CU_EVENT_DEFAULT), "cuEventCreate") &&
                ok(run, run.api.event_record(start, run.stream), "cuEventRecord");
    for (uint64_t i = 0; good && i < iterations; ++i) good = body();
    float ms = 0;
    good = good && ok(run, run.api.event_record(stop, run.stream), "cuEventRecord") &&
           ok(run, run.api.event_synchronize(stop), "cuEventSynchronize") &&
           ok(run, run.api.event_elapsed_time(&ms, start, stop), "cuEventElapsedTime");
    if (start) run.api.event_destroy(start);
    if (stop) run.api.event_destroy(stop);
    *elapsed_ms = ms;
    return good;
}

// The compute capability of the current context's GPU (major*10+minor); 0
// when it cannot be read.
int current_compute_capability(const Run& run);

}  // namespace strata::driver::bench
