// What an image's contents say about it, beyond its fat-binary header: the
// PTX text's .version and .target, and the toolkit that built a cubin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "strata/arch/bytes.h"
#include "strata/arch/expected.h"

namespace strata::arch {

struct PtxHeader {
    std::string isa_version;  // ".version 9.0" -> "9.0"
    std::string target;       // ".target sm_90a" -> "sm_90a" (first target only)
};

// nullopt when the text has no .version directive.
std::optional<PtxHeader> parse_ptx_header(std::string_view text);

struct CubinInfo {
    uint32_t sm = 0;          // from e_flags (the layout depends on the ELF ABI version)
    uint8_t abi_version = 0;  // 7 legacy layout, 8 CUDA 12.8+/13 layout
    uint16_t elf_type = 0;    // 1 relocatable (-rdc), 2 linked
    std::string toolkit;      // "13.0.88" from .note.nv.tkinfo, else "13.0" from .note.nv.cuinfo
    std::string producer;     // "ptxas" or "nvlink", when recorded
};

Expected<CubinInfo> read_cubin_info(Bytes cubin);

// SM number from a cubin's e_flags for its ABI version.
uint32_t cubin_sm_from_flags(uint32_t flags, uint8_t abi_version);

}  // namespace strata::arch
