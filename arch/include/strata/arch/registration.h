// The fat binaries a host binary registers with the CUDA runtime when it is
// loaded. nvcc emits one wrapper per translation unit (__fatBinC_Wrapper_t:
// magic 0x466243b1, version, a pointer to the fat binary, and for version 2 a
// pointer to a null-terminated list of prelinked fat binaries) into
// .nvFatBinSegment, and the runtime registers exactly those: each is loaded,
// and judged, on its own. Containers that no wrapper points at (a library's
// images kept for device-side linking, NCCL's) are never loaded by the runtime.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strata/arch/elf.h"

namespace strata::arch {

inline constexpr uint32_t fatbin_wrapper_magic = 0x466243b1;

struct Registration {
    bool has_segment = false;       // the file has a .nvFatBinSegment
    std::vector<uint64_t> offsets;  // file offsets of the registered containers, each once, in order
    size_t relocatable = 0;         // wrappers naming __nv_relfatbin inputs of the device link (never loaded)
    std::vector<std::string> warnings;  // wrappers that could not be followed
    // Filled by read_binary, which has the images. Per registered container
    // (in the order of `offsets`): the indices of its SASS and PTX images in
    // the listing; empty when it has none or defines no kernel (nvcc's link
    // stub for a shared library: a cubin without a single .text.<kernel>).
    std::vector<std::vector<size_t>> code_images;
    size_t unregistered_images = 0;  // images in containers the runtime never loads
};

// Pointers are read in place, or from the R_*_RELATIVE relocation that fills
// them at load time (position-independent code stores zero in the file).
Registration registered_fatbins(const ElfFile& elf);

}  // namespace strata::arch
