#include "l2_flush.h"

#include <algorithm>

#include "strata_kernels/kernels.h"

namespace strata::bench {

namespace {

// Twice the L2, at least 8 MiB, a multiple of the kernel's 16-byte words.
size_t flush_bytes(int device) {
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
    return (std::max<size_t>(2 * static_cast<size_t>(l2), 8u << 20) + 15) / 16 * 16;
}

std::string failure(const char* what, int device, cudaError_t rc) {
    return std::string(what) + " on GPU " + std::to_string(device) + ": " + cudaGetErrorName(rc);
}

}  // namespace

L2Flush::L2Flush(int home, cudaStream_t stream, const std::vector<int>& devices) : home_(home) {
    std::vector<int> all = {home};
    for (int d : devices)
        if (d != home) all.push_back(d);
    for (int device : all) {
        PerDevice& d = devices_.emplace_back();
        d.device = device;
        d.bytes = flush_bytes(device);
        cudaError_t rc = cudaSetDevice(device);
        if (rc == cudaSuccess && device != home) {
            rc = cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking);
            d.own_stream = rc == cudaSuccess;
        } else {
            d.stream = stream;
        }
        if (rc == cudaSuccess) rc = cudaMalloc(&d.buffer, d.bytes);
        if (rc == cudaSuccess) rc = cudaMalloc(reinterpret_cast<void**>(&d.sink), sizeof(unsigned));
        // Written once here: what the flush leaves in the L2 is clean.
        if (rc == cudaSuccess) rc = cudaMemsetAsync(d.buffer, 0x5a, d.bytes, d.stream);
        if (rc == cudaSuccess) rc = cudaStreamSynchronize(d.stream);
        if (rc != cudaSuccess) {
            error_ = failure("cannot allocate the L2 flush buffer", device, rc);
            break;
        }
    }
    cudaSetDevice(home_);
}

L2Flush::~L2Flush() {
    for (PerDevice& d : devices_) {
        cudaSetDevice(d.device);
        if (d.sink) cudaFree(d.sink);
        if (d.buffer) cudaFree(d.buffer);
        if (d.own_stream) cudaStreamDestroy(d.stream);
    }
    cudaSetDevice(home_);
}

void L2Flush::flush() {
    if (!error_.empty()) return;
    for (PerDevice& d : devices_) {
        if (devices_.size() > 1) cudaSetDevice(d.device);
        kernels::launch_read_through(d.buffer, d.bytes, d.sink, d.stream);
    }
    if (devices_.size() == 1) return;  // in order on the timed run's stream
    for (PerDevice& d : devices_)
        if (d.own_stream) cudaStreamSynchronize(d.stream);
    cudaSetDevice(home_);
}

}  // namespace strata::bench
