#include "memory_benchmarks.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

namespace strata::driver::bench {

namespace {

// Page-aligned host memory, touched so that registering it pins pages that exist.
struct TouchedHost {
    void* data = nullptr;
    explicit TouchedHost(size_t bytes) {
        data = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
        if (data) std::memset(data, 1, bytes);
    }
    ~TouchedHost() { std::free(data); }
    TouchedHost(const TouchedHost&) = delete;
    TouchedHost& operator=(const TouchedHost&) = delete;
};

std::map<size_t, std::unique_ptr<TouchedHost>> registered_buffers;
bool pool_kept = false;

void* touched(size_t bytes) {
    auto& slot = registered_buffers[bytes];
    if (!slot) slot = std::make_unique<TouchedHost>(bytes);
    return slot->data;
}

// The default pool keeps what is freed to it: without this the driver
// returns memory at every synchronisation, and each allocation would time
// the OS, not the pool.
bool keep_pool(const Run& run) {
    if (pool_kept) return true;
    CUdevice device = 0;
    CUmemoryPool pool = nullptr;
    cuuint64_t never = ~cuuint64_t{0};
    if (!ok(run, run.api.ctx_get_device(&device), "cuCtxGetDevice") ||
        !ok(run, run.api.device_get_default_mem_pool(&pool, device), "cuDeviceGetDefaultMemPool") ||
        !ok(run, run.api.mem_pool_set_attribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &never),
            "cuMemPoolSetAttribute"))
        return false;
    pool_kept = true;
    return true;
}

bool device_alloc_free(const Run& run, size_t bytes) {
    CUdeviceptr p = 0;
    return ok(run, run.api.mem_alloc(&p, bytes), "cuMemAlloc") && ok(run, run.api.mem_free(p), "cuMemFree");
}

bool pool_alloc_free(const Run& run, size_t bytes) {
    CUdeviceptr p = 0;
    return ok(run, run.api.mem_alloc_async(&p, bytes, run.stream), "cuMemAllocAsync") &&
           ok(run, run.api.mem_free_async(p, run.stream), "cuMemFreeAsync");
}

bool host_alloc_free(const Run& run, size_t bytes) {
    void* p = nullptr;
    return ok(run, run.api.mem_host_alloc(&p, bytes, 0), "cuMemHostAlloc") &&
           ok(run, run.api.mem_free_host(p), "cuMemFreeHost");
}

bool register_unregister(const Run& run, void* host, size_t bytes) {
    return ok(run, run.api.mem_host_register(host, bytes, 0), "cuMemHostRegister") &&
           ok(run, run.api.mem_host_unregister(host), "cuMemHostUnregister");
}

// Device memory that holds what was written to it, at both ends.
bool device_memory_holds(const Run& run, CUdeviceptr p, size_t bytes) {
    std::vector<unsigned char> pattern(std::min<size_t>(bytes, 4096)), back(pattern.size());
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<unsigned char>(i * 7 + 3);
    for (size_t at : {size_t{0}, bytes - pattern.size()}) {
        if (!ok(run, run.api.memcpy_htod(p + at, pattern.data(), pattern.size()), "cuMemcpyHtoD") ||
            !ok(run, run.api.memcpy_dtoh(back.data(), p + at, back.size()), "cuMemcpyDtoH"))
            return false;
        if (back != pattern) {
            run.report.log(STRATA_LOG_ERROR, "allocated memory does not hold what was written to it");
            return false;
        }
    }
    return true;
}

}  // namespace

bool validate_memory(const Case& c, const Run& run) {
    switch (c.variant) {
        case kDeviceAlloc: {
            CUdeviceptr p = 0;
            if (!ok(run, run.api.mem_alloc(&p, c.size), "cuMemAlloc")) return false;
            bool holds = device_memory_holds(run, p, c.size);
            return ok(run, run.api.mem_free(p), "cuMemFree") && holds;
        }
        case kPoolAlloc: {
            CUdeviceptr p = 0;
            if (!keep_pool(run) ||
                !ok(run, run.api.mem_alloc_async(&p, c.size, run.stream), "cuMemAllocAsync") ||
                !ok(run, run.api.stream_synchronize(run.stream), "cuStreamSynchronize"))
                return false;
            bool holds = device_memory_holds(run, p, c.size);
            return ok(run, run.api.mem_free_async(p, run.stream), "cuMemFreeAsync") &&
                   ok(run, run.api.stream_synchronize(run.stream), "cuStreamSynchronize") && holds;
        }
        case kHostAlloc: {
            void* p = nullptr;
            if (!ok(run, run.api.mem_host_alloc(&p, c.size, 0), "cuMemHostAlloc")) return false;
            std::memset(p, 0x5a, c.size);  // the pages are the caller's to write
            return ok(run, run.api.mem_free_host(p), "cuMemFreeHost");
        }
        case kHostRegister: {
            void* host = touched(c.size);
            return host && register_unregister(run, host, c.size);
        }
    }
    return false;
}

bool run_memory(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms) {
    switch (c.variant) {
        case kDeviceAlloc:
            return host_timed(iterations, elapsed_ms, [&] { return device_alloc_free(run, c.size); });
        case kPoolAlloc:
            return keep_pool(run) && host_timed_to_completion(run, iterations, elapsed_ms,
                                                              [&] { return pool_alloc_free(run, c.size); });
        case kHostAlloc:
            return host_timed(iterations, elapsed_ms, [&] { return host_alloc_free(run, c.size); });
        case kHostRegister: {
            void* host = touched(c.size);
            return host &&
                   host_timed(iterations, elapsed_ms, [&] { return register_unregister(run, host, c.size); });
        }
    }
    return false;
}

void release_memory() {
    registered_buffers.clear();
    pool_kept = false;
}

}  // namespace strata::driver::bench
