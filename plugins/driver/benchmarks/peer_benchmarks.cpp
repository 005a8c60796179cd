#include "peer_benchmarks.h"

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace strata::driver::bench {

namespace {

// The benchmark GPU's context and the peer's, and a buffer on each, made on
// first use for one copy size, outside any timing.
struct PeerPair {
    const BenchmarkApi* api = nullptr;
    CUcontext local = nullptr, peer = nullptr;
    CUdevice local_device = 0, peer_device = 0;
    bool peer_retained = false;
    bool can_access = false;  // cuDeviceCanAccessPeer(local -> peer)
    bool access = false;      // enabled now, from the local context
    size_t bytes = 0;
    CUdeviceptr local_buffer = 0, peer_buffer = 0;
    bool good = false;

    ~PeerPair() {
        if (local_buffer) api->mem_free(local_buffer);
        if (peer_buffer) api->mem_free(peer_buffer);
        if (access && local) api->ctx_disable_peer_access(peer);
        if (peer_retained) api->primary_ctx_release(peer_device);
        if (local) api->ctx_set_current(local);
    }
};

std::map<size_t, std::unique_ptr<PeerPair>> kept;

std::string gpu_text(CUdevice device) {
    return "GPU " + std::to_string(static_cast<int>(device));
}

// Runs `body` with `context` current, then makes `back` current again.
template <typename Body>
bool in_context(const Run& run, CUcontext context, CUcontext back, Body&& body) {
    if (!ok(run, run.api.ctx_set_current(context), "cuCtxSetCurrent")) return false;
    bool good = body();
    return ok(run, run.api.ctx_set_current(back), "cuCtxSetCurrent") && good;
}

PeerPair* pair(const Run& run, size_t bytes) {
    auto& slot = kept[bytes];
    if (slot) return slot->good ? slot.get() : nullptr;
    slot = std::make_unique<PeerPair>();
    PeerPair& p = *slot;
    p.api = &run.api;
    p.bytes = bytes;
    int count = 0;
    if (!ok(run, run.api.ctx_get_current(&p.local), "cuCtxGetCurrent") ||
        !ok(run, run.api.ctx_get_device(&p.local_device), "cuCtxGetDevice") ||
        !ok(run, run.api.device_get_count(&count), "cuDeviceGetCount"))
        return nullptr;
    if (count < 2) {
        run.report.log(STRATA_LOG_ERROR,
                       "a copy between GPUs needs a second GPU; CUDA sees " + std::to_string(count));
        return nullptr;
    }
    int can = 0;
    if (!ok(run, run.api.device_get(&p.peer_device, (static_cast<int>(p.local_device) + 1) % count),
            "cuDeviceGet") ||
        !ok(run, run.api.device_can_access_peer(&can, p.local_device, p.peer_device),
            "cuDeviceCanAccessPeer") ||
        !ok(run, run.api.primary_ctx_retain(&p.peer, p.peer_device), "cuDevicePrimaryCtxRetain"))
        return nullptr;
    p.peer_retained = true;
    p.can_access = can != 0;
    p.good = in_context(run, p.peer, p.local,
                        [&] { return ok(run, run.api.mem_alloc(&p.peer_buffer, bytes), "cuMemAlloc"); }) &&
             ok(run, run.api.mem_alloc(&p.local_buffer, bytes), "cuMemAlloc");
    return p.good ? &p : nullptr;
}

bool direct(const Case& c) {
    return c.variant == kPeerReadDirect || c.variant == kPeerWriteDirect || c.variant == kPeerLatencyDirect;
}

bool reads(const Case& c) {
    return c.variant == kPeerReadDirect || c.variant == kPeerReadStaged || c.variant == kPeerLatencyDirect;
}

// Peer access as the variant asks, from the benchmark GPU's context.
bool set_access(const Case& c, const Run& run, PeerPair& p) {
    bool want = direct(c);
    if (want == p.access) return true;
    if (want && !p.can_access) {
        run.report.log(STRATA_LOG_ERROR, gpu_text(p.local_device) + " cannot reach " +
                                             gpu_text(p.peer_device) +
                                             " directly (cuDeviceCanAccessPeer: 0): no peer-to-peer path "
                                             "between them, so copies go through host memory");
        return false;
    }
    CUresult rc = want ? run.api.ctx_enable_peer_access(p.peer, 0) : run.api.ctx_disable_peer_access(p.peer);
    if (rc == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED || rc == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
        rc = CUDA_SUCCESS;  // the state is what is wanted
    if (!ok(run, rc, want ? "cuCtxEnablePeerAccess" : "cuCtxDisablePeerAccess")) return false;
    p.access = want;
    return true;
}

bool enqueue(const Case& c, const Run& run, PeerPair& p, size_t bytes) {
    CUresult rc =
        reads(c)
            ? run.api.memcpy_peer_async(p.local_buffer, p.local, p.peer_buffer, p.peer, bytes, run.stream)
            : run.api.memcpy_peer_async(p.peer_buffer, p.peer, p.local_buffer, p.local, bytes, run.stream);
    return ok(run, rc, "cuMemcpyPeerAsync");
}

}  // namespace

bool validate_peer(const Case& c, const Run& run) {
    PeerPair* p = pair(run, c.size);
    if (!p || !set_access(c, run, *p)) return false;
    std::vector<unsigned char> pattern(c.size), back(c.size);
    for (size_t i = 0; i < c.size; ++i)
        pattern[i] = static_cast<unsigned char>(i * 151 + c.variant + (i >> 10));
    // The source holds the pattern, the destination something else.
    CUdeviceptr source = reads(c) ? p->peer_buffer : p->local_buffer;
    CUdeviceptr destination = reads(c) ? p->local_buffer : p->peer_buffer;
    CUcontext source_context = reads(c) ? p->peer : p->local;
    CUcontext destination_context = reads(c) ? p->local : p->peer;
    std::vector<unsigned char> other(c.size, 0xA5);
    bool good =
        in_context(
            run, source_context, p->local,
            [&] { return ok(run, run.api.memcpy_htod(source, pattern.data(), c.size), "cuMemcpyHtoD"); }) &&
        in_context(run, destination_context, p->local,
                   [&] {
                       return ok(run, run.api.memcpy_htod(destination, other.data(), c.size), "cuMemcpyHtoD");
                   }) &&
        enqueue(c, run, *p, c.size) &&
        ok(run, run.api.stream_synchronize(run.stream), "cuStreamSynchronize") &&
        in_context(run, destination_context, p->local, [&] {
            return ok(run, run.api.memcpy_dtoh(back.data(), destination, c.size), "cuMemcpyDtoH");
        });
    if (!good) return false;
    if (back != pattern) {
        run.report.log(STRATA_LOG_ERROR, std::string(c.name) + ": " + gpu_text(p->peer_device) +
                                             (reads(c) ? "'s data did not arrive on " : " did not receive ") +
                                             gpu_text(p->local_device) + (reads(c) ? "" : "'s data"));
        return false;
    }
    run.report.log(STRATA_LOG_INFO, std::string(c.name) + ": " + gpu_text(p->local_device) +
                                        (reads(c) ? " <- " : " -> ") + gpu_text(p->peer_device) +
                                        (direct(c) ? ", peer access enabled" : ", peer access disabled"));
    return true;
}

bool run_peer(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms) {
    PeerPair* p = pair(run, c.size);
    if (!p || !set_access(c, run, *p)) return false;
    return event_timed(run, iterations, elapsed_ms, [&] { return enqueue(c, run, *p, c.size); });
}

void release_peers() {
    kept.clear();
}

}  // namespace strata::driver::bench
