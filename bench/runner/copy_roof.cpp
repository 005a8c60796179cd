#include "copy_roof.h"

#include <algorithm>
#include <cstddef>

namespace strata::bench {

double measured_copy_roof_gbps(cudaStream_t stream) {
    constexpr size_t kBytes = size_t{256} << 20;
    constexpr int kCopies = 10;
    void* from = nullptr;
    void* to = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    double best_ms = 0;
    bool ok = cudaMalloc(&from, kBytes) == cudaSuccess && cudaMalloc(&to, kBytes) == cudaSuccess &&
              cudaMemsetAsync(from, 1, kBytes, stream) == cudaSuccess &&
              cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess &&
              cudaMemcpyAsync(to, from, kBytes, cudaMemcpyDeviceToDevice, stream) == cudaSuccess;  // warm-up
    for (int i = 0; ok && i < kCopies; ++i) {
        float ms = 0;
        ok = cudaEventRecord(start, stream) == cudaSuccess &&
             cudaMemcpyAsync(to, from, kBytes, cudaMemcpyDeviceToDevice, stream) == cudaSuccess &&
             cudaEventRecord(stop, stream) == cudaSuccess && cudaEventSynchronize(stop) == cudaSuccess &&
             cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms > 0;
        if (ok) best_ms = best_ms == 0 ? ms : std::min(best_ms, static_cast<double>(ms));
    }
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (from) cudaFree(from);
    if (to) cudaFree(to);
    cudaGetLastError();  // an out-of-memory here must not look like a later kernel's error
    return ok && best_ms > 0 ? 2.0 * kBytes / (best_ms / 1e3) / 1e9 : 0;
}

}  // namespace strata::bench
