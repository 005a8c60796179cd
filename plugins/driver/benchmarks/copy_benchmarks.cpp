#include "copy_benchmarks.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

namespace strata::driver::bench {

namespace {

// The buffers of one copy size, made on first use, outside any timing.
struct Buffers {
    const BenchmarkApi* api = nullptr;
    size_t bytes = 0;
    CUdeviceptr device_a = 0, device_b = 0;
    void* pinned_a = nullptr;
    void* pinned_b = nullptr;
    void* pageable_a = nullptr;
    void* pageable_b = nullptr;
    CUstream other = nullptr;  // the bidirectional test's second stream
    bool good = false;

    ~Buffers() {
        if (device_a) api->mem_free(device_a);
        if (device_b) api->mem_free(device_b);
        if (pinned_a) api->mem_free_host(pinned_a);
        if (pinned_b) api->mem_free_host(pinned_b);
        std::free(pageable_a);
        std::free(pageable_b);
        if (other) api->stream_destroy(other);
    }
};

std::map<size_t, std::unique_ptr<Buffers>> kept;

void fill(void* host, size_t bytes, unsigned char seed) {
    auto* p = static_cast<unsigned char*>(host);
    for (size_t i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(i * 131 + seed + (i >> 12));
}

Buffers* buffers(const Run& run, size_t bytes) {
    auto& slot = kept[bytes];
    if (slot) return slot->good ? slot.get() : nullptr;
    slot = std::make_unique<Buffers>();
    Buffers& b = *slot;
    b.api = &run.api;
    b.bytes = bytes;
    b.pageable_a = std::malloc(bytes);
    b.pageable_b = std::malloc(bytes);
    if (!b.pageable_a || !b.pageable_b) {
        run.report.log(STRATA_LOG_ERROR, "out of host memory for " + std::to_string(bytes) + "-byte buffers");
        return nullptr;
    }
    // Touched: a copy from pages not yet faulted in would time the OS.
    std::memset(b.pageable_a, 1, bytes);
    std::memset(b.pageable_b, 2, bytes);
    b.good = ok(run, run.api.mem_alloc(&b.device_a, bytes), "cuMemAlloc") &&
             ok(run, run.api.mem_alloc(&b.device_b, bytes), "cuMemAlloc") &&
             ok(run, run.api.mem_host_alloc(&b.pinned_a, bytes, 0), "cuMemHostAlloc") &&
             ok(run, run.api.mem_host_alloc(&b.pinned_b, bytes, 0), "cuMemHostAlloc") &&
             ok(run, run.api.stream_create(&b.other, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    return b.good ? &b : nullptr;
}

// The host side of the measured copy: pinned or pageable, by the variant.
void* host_buffer(const Case& c, const Buffers& b) {
    bool pinned = c.variant == kHostToDevicePinned || c.variant == kDeviceToHostPinned ||
                  c.variant == kHostToDeviceBidirectional;
    return pinned ? b.pinned_a : b.pageable_a;
}

// One copy of the measured direction, enqueued on `stream`.
bool enqueue(const Case& c, const Run& run, Buffers& b, CUstream stream) {
    void* host = host_buffer(c, b);
    switch (c.variant) {
        case kHostToDevicePinned:
        case kHostToDevicePageable:
        case kHostToDeviceBidirectional:
            return ok(run, run.api.memcpy_htod_async(b.device_a, host, b.bytes, stream), "cuMemcpyHtoDAsync");
        case kDeviceToHostPinned:
        case kDeviceToHostPageable:
            return ok(run, run.api.memcpy_dtoh_async(host, b.device_a, b.bytes, stream), "cuMemcpyDtoHAsync");
        case kDeviceToDevice:
            return ok(run, run.api.memcpy_dtod_async(b.device_b, b.device_a, b.bytes, stream),
                      "cuMemcpyDtoDAsync");
    }
    return false;
}

// Where the measured copy's bytes land, read back to the host.
bool destination_matches(const Case& c, const Run& run, Buffers& b, const void* expected) {
    std::vector<unsigned char> back(b.bytes);
    const void* got = back.data();
    switch (c.variant) {
        case kDeviceToHostPinned:
        case kDeviceToHostPageable: got = host_buffer(c, b); break;
        case kDeviceToDevice:
            if (!ok(run, run.api.memcpy_dtoh(back.data(), b.device_b, b.bytes), "cuMemcpyDtoH")) return false;
            break;
        default:
            if (!ok(run, run.api.memcpy_dtoh(back.data(), b.device_a, b.bytes), "cuMemcpyDtoH")) return false;
    }
    if (std::memcmp(got, expected, b.bytes) == 0) return true;
    run.report.log(STRATA_LOG_ERROR,
                   std::string(c.name) + ": the copy's destination does not hold its source");
    return false;
}

}  // namespace

bool validate_copy(const Case& c, const Run& run) {
    Buffers* b = buffers(run, c.size);
    if (!b) return false;
    std::vector<unsigned char> pattern(c.size);
    fill(pattern.data(), c.size, static_cast<unsigned char>(c.variant));
    bool to_device = c.variant == kHostToDevicePinned || c.variant == kHostToDevicePageable ||
                     c.variant == kHostToDeviceBidirectional;
    if (to_device) {
        std::memcpy(host_buffer(c, *b), pattern.data(), c.size);
    } else if (!ok(run, run.api.memcpy_htod(b->device_a, pattern.data(), c.size), "cuMemcpyHtoD")) {
        return false;
    }
    return enqueue(c, run, *b, run.stream) &&
           ok(run, run.api.stream_synchronize(run.stream), "cuStreamSynchronize") &&
           destination_matches(c, run, *b, pattern.data());
}

bool run_copy(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms) {
    Buffers* b = buffers(run, c.size);
    if (!b) return false;
    if (c.variant != kHostToDeviceBidirectional)
        return event_timed(run, iterations, elapsed_ms, [&] { return enqueue(c, run, *b, run.stream); });
    // The opposite direction on the second stream, started with the first
    // (it waits on an event recorded where the measured copies begin).
    CUevent begin = nullptr;
    bool good = ok(run, run.api.event_create(&begin, CU_EVENT_DISABLE_TIMING), "cuEventCreate") &&
                ok(run, run.api.event_record(begin, run.stream), "cuEventRecord") &&
                ok(run, run.api.stream_wait_event(b->other, begin, 0), "cuStreamWaitEvent");
    for (uint64_t i = 0; good && i < iterations; ++i)
        good = ok(run, run.api.memcpy_dtoh_async(b->pinned_b, b->device_b, b->bytes, b->other),
                  "cuMemcpyDtoHAsync");
    good = good && event_timed(run, iterations, elapsed_ms, [&] { return enqueue(c, run, *b, run.stream); });
    good = ok(run, run.api.stream_synchronize(b->other), "cuStreamSynchronize") && good;
    if (begin) run.api.event_destroy(begin);
    return good;
}

void release_copies() {
    kept.clear();
}

}  // namespace strata::driver::bench
