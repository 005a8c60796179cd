#include "launch_shape.h"
#include "strata_kernels/kernels.h"

namespace strata::kernels {

namespace {

// Each thread XORs its grid-stride share of 16-byte words; one atomic per
// warp folds it into *sink, so every byte is really read (and the reads
// cannot be optimised away) while the only write is one word.
__global__ void read_through_kernel(const uint4* words, size_t count, unsigned* sink) {
    unsigned folded = 0;
    for (size_t i = global_index(); i < count; i += grid_stride()) {
        uint4 w = words[i];
        folded ^= w.x ^ w.y ^ w.z ^ w.w;
    }
    for (int offset = 16; offset > 0; offset /= 2) folded ^= __shfl_xor_sync(0xffffffffu, folded, offset);
    if (threadIdx.x % 32 == 0) atomicXor(sink, folded);
}

}  // namespace

int launch_read_through(const void* buffer, size_t bytes, unsigned* sink, void* stream) {
    size_t count = bytes / sizeof(uint4);
    read_through_kernel<<<stream_blocks(count), kStreamThreads, 0, static_cast<cudaStream_t>(stream)>>>(
        static_cast<const uint4*>(buffer), count, sink);
    return static_cast<int>(cudaGetLastError());
}

unsigned read_through_reference(const void* buffer, size_t bytes) {
    const unsigned* words = static_cast<const unsigned*>(buffer);
    unsigned folded = 0;
    for (size_t i = 0; i < bytes / sizeof(uint4) * 4; ++i) folded ^= words[i];
    return folded;
}

}  // namespace strata::kernels
