// Finds every CUDA fat-binary container in a file and lists its images
// (SASS cubins, PTX, LTO-IR, and kinds this build does not know), reading
// only the container and entry headers. Payloads are decompressed on request.
//
// Format (see docs/architecture.md and the data sheet it cites):
//   container: u32 magic 0xBA55ED50, u16 version 1, u16 header size 16, u64 bytes of entries
//   entry:     u16 kind, u16 0x0101, u32 header size, u64 payload size, u32 compressed size,
//              u32 extension offset, u16 minor, u16 major, u32 arch, u32 ident offset, u32 ident
//              length, u64 flags, u64 reserved, u64 uncompressed size, [extension area]
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strata/arch/bytes.h"
#include "strata/arch/elf.h"
#include "strata/arch/expected.h"

namespace strata::arch {

enum class ImageKind { sass, ptx, ltoir, unknown };
enum class Compression { none, lz4, zstd };
enum class Variant { plain, arch_specific, family_specific };  // sm_90, sm_90a, sm_100f

std::string_view image_kind_name(ImageKind kind);
std::string_view compression_name(Compression compression);

struct FatbinImage {
    ImageKind kind = ImageKind::unknown;
    uint16_t raw_kind = 0;  // the entry's kind field, kept for unknown kinds
    uint32_t sm = 0;        // 90 for sm_90 / compute_90
    Variant variant = Variant::plain;
    Compression compression = Compression::none;
    uint16_t version_major = 0;  // PTX: ISA version; SASS: cubin code version
    uint16_t version_minor = 0;
    uint64_t flags = 0;
    bool debug = false;
    std::string section;       // where the container lives
    uint64_t offset = 0;       // of the entry, in the file
    uint64_t container = 0;    // of the container (fat binary) it belongs to, in the file
    Bytes payload;             // exactly the stored bytes (compressed or not); a view into the file
    uint64_t stored_size = 0;  // payload's size, kept when the file is no longer mapped
    uint64_t uncompressed_size = 0;
    std::string options;  // PTX: ptxas options given at JIT time

    // "sm_90a", "compute_120", "lto_80"
    std::string target_name() const;
};

struct FatbinScan {
    std::vector<FatbinImage> images;
    size_t containers = 0;
    std::vector<std::string> warnings;  // malformed containers in fat-binary sections
};

// Scans every section that can hold device code. Containers in .nv_fatbin and
// __nv_relfatbin must be well-formed (else a warning); elsewhere a candidate
// magic that does not validate is data that happens to match, and is ignored.
FatbinScan scan_elf(const ElfFile& elf);

// Scans a raw byte range (a .fatbin file, or one section).
void scan_bytes(Bytes bytes, uint64_t file_offset, const std::string& section, bool strict, FatbinScan& out);

// The whole container (fat binary) at `offset` of `file`, header and
// entries, in bytes: what a loader hands the driver. An error when no
// well-formed container header is there or it runs past the file.
Expected<uint64_t> container_size(Bytes file, uint64_t offset);

// The image as the driver would see it, decompressed when needed.
Expected<std::string> image_contents(const FatbinImage& image);

std::string variant_suffix(Variant variant);

}  // namespace strata::arch
