// Launch geometry shared by the element-wise kernels.
#pragma once

#include <cstddef>

namespace strata::kernels {

constexpr unsigned kStreamThreads = 256;

// Enough blocks to cover n once, capped so huge n loops in-kernel instead of
// asking for a grid larger than every GPU allows.
inline unsigned stream_blocks(size_t n) {
    size_t blocks = (n + kStreamThreads - 1) / kStreamThreads;
    constexpr size_t cap = 65535u * 8;
    return static_cast<unsigned>(blocks == 0 ? 1 : blocks > cap ? cap : blocks);
}

__device__ inline size_t global_index() {
    return blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
}
__device__ inline size_t grid_stride() {
    return static_cast<size_t>(gridDim.x) * blockDim.x;
}

}  // namespace strata::kernels
