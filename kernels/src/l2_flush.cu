#include <algorithm>

#include "launch_shape.h"
#include "strata_kernels/kernels.h"

namespace strata::kernels {

namespace {

// Each thread XORs its grid-stride share of 16-byte words, so every byte is
// really read (and the reads cannot be optimised away); the block folds its
// warps' values in shared memory and one atomic per block folds that into
// *sink. A grid of at most kFlushBlocks keeps those atomics on one address
// few: one per warp of a grid covering the buffer was ~200,000 of them for a
// 100 MB flush, serialised on the sink's L2 line.
constexpr unsigned kFlushBlocks = 2048;

__global__ void read_through_kernel(const uint4* words, size_t count, unsigned* sink) {
    __shared__ unsigned per_warp[kStreamThreads / 32];
    unsigned folded = 0;
    for (size_t i = global_index(); i < count; i += grid_stride()) {
        uint4 w = words[i];
        folded ^= w.x ^ w.y ^ w.z ^ w.w;
    }
    for (int offset = 16; offset > 0; offset /= 2) folded ^= __shfl_xor_sync(0xffffffffu, folded, offset);
    if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = folded;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned block = 0;
        for (unsigned w = 0; w < blockDim.x / 32; ++w) block ^= per_warp[w];
        atomicXor(sink, block);
    }
}

}  // namespace

int launch_read_through(const void* buffer, size_t bytes, unsigned* sink, void* stream) {
    size_t count = bytes / sizeof(uint4);
    read_through_kernel<<<std::min(stream_blocks(count), kFlushBlocks), kStreamThreads, 0,
                          static_cast<cudaStream_t>(stream)>>>(static_cast<const uint4*>(buffer), count,
                                                               sink);
    return static_cast<int>(cudaGetLastError());
}

unsigned read_through_reference(const void* buffer, size_t bytes) {
    const unsigned* words = static_cast<const unsigned*>(buffer);
    unsigned folded = 0;
    for (size_t i = 0; i < bytes / sizeof(uint4) * 4; ++i) folded ^= words[i];
    return folded;
}

}  // namespace strata::kernels
