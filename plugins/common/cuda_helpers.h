// Small CUDA-runtime helpers the GPU plugins share: a device buffer that frees
// itself, a deterministic input pattern, and timing a loop with CUDA events on
// the stream a benchmark is given.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace strata::plugin {

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t n) : n_(n) {
        status_ = cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T));
    }
    ~DeviceBuffer() {
        if (data_) cudaFree(data_);
    }
    DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(n_, other.n_);
        std::swap(status_, other.status_);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    T* get() const { return data_; }
    size_t size() const { return n_; }
    cudaError_t status() const { return status_; }
    cudaError_t upload(const std::vector<T>& host) {
        return cudaMemcpy(data_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice);
    }
    cudaError_t download(std::vector<T>& host) const {
        host.resize(n_);
        return cudaMemcpy(host.data(), data_, n_ * sizeof(T), cudaMemcpyDeviceToHost);
    }

private:
    T* data_ = nullptr;
    size_t n_ = 0;
    cudaError_t status_ = cudaSuccess;
};

// Values in [-1, 1) that differ from element to element and seed to seed.
inline std::vector<float> input_pattern(size_t n, int seed) {
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = static_cast<float>((i * 7 + static_cast<size_t>(seed) * 13) % 101) / 50.f - 1.f;
    return out;
}

inline std::string cuda_error_text(cudaError_t rc) {
    return std::string(cudaGetErrorName(rc)) + " (" + std::to_string(static_cast<int>(rc)) +
           "): " + cudaGetErrorString(rc);
}

// Times `iterations` calls of `body` on `stream` with events recorded on that
// stream; the elapsed device time in ms goes to *elapsed_ms. Returns false
// (and leaves *elapsed_ms alone) if any step fails.
template <typename Body>
bool time_on_stream(cudaStream_t stream, uint64_t iterations, double* elapsed_ms, Body&& body) {
    cudaEvent_t start = nullptr, stop = nullptr;
    if (cudaEventCreate(&start) != cudaSuccess) return false;
    if (cudaEventCreate(&stop) != cudaSuccess) {
        cudaEventDestroy(start);
        return false;
    }
    bool ok = cudaEventRecord(start, stream) == cudaSuccess;
    for (uint64_t i = 0; ok && i < iterations; ++i) ok = body();
    ok = ok && cudaEventRecord(stop, stream) == cudaSuccess && cudaEventSynchronize(stop) == cudaSuccess;
    float ms = 0;
    ok = ok && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess;
    if (ok) *elapsed_ms = ms;
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ok;
}

}  // namespace strata::plugin
