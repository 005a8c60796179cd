#include "strata/arch/fatbin.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace strata::arch {

namespace {

// The container magic 0xBA55ED50, as it appears in a little-endian file.
constexpr char container_magic[4] = {0x50, static_cast<char>(0xED), 0x55, static_cast<char>(0xBA)};
constexpr uint64_t container_header_size = 16;
constexpr uint64_t entry_header_min = 0x40;
constexpr uint16_t entry_header_version = 0x0101;
constexpr uint64_t flag_debug = 0x2, flag_lz4 = 0x2000, flag_zstd = 0x8000;
constexpr uint64_t flag_arch_specific = 0x100000, flag_family_specific = 0x200000;
// A decompressed image larger than this is refused rather than allocated.
constexpr uint64_t max_image_bytes = uint64_t{1} << 31;

ImageKind kind_of(uint16_t raw) {
    switch (raw) {
        case 1: return ImageKind::ptx;
        case 2: return ImageKind::sass;
        case 8: return ImageKind::ltoir;
        default: return ImageKind::unknown;
    }
}

// Parses one container at `at`; returns its total size, or an error.
Expected<uint64_t> parse_container(Bytes bytes, uint64_t at, uint64_t file_offset, const std::string& section,
                                   FatbinScan& out) {
    if (!in_bounds(bytes, at, container_header_size)) return Error{"container header truncated"};
    uint16_t version = load_le<uint16_t>(bytes, at + 4);
    uint16_t header = load_le<uint16_t>(bytes, at + 6);
    uint64_t entries_size = load_le<uint64_t>(bytes, at + 8);
    if (version != 1 || header != container_header_size)
        return Error{"container at " + hex(file_offset + at) + " has version " + std::to_string(version) +
                     " and header size " + std::to_string(header) + ", expected 1 and 16"};
    if (!in_bounds(bytes, at + container_header_size, entries_size))
        return Error{"container at " + hex(file_offset + at) + " declares " + hex(entries_size) +
                     " bytes of entries, past the end of " + section};
    Bytes entries = slice(bytes, at + container_header_size, entries_size);
    std::vector<FatbinImage> images;
    uint64_t e = 0;
    while (entries.size() - e >= entry_header_min) {
        uint16_t kind = load_le<uint16_t>(entries, e);
        uint16_t header_version = load_le<uint16_t>(entries, e + 2);
        uint32_t header_size = load_le<uint32_t>(entries, e + 4);
        uint64_t payload_size = load_le<uint64_t>(entries, e + 8);
        uint64_t entry_offset = file_offset + at + container_header_size + e;
        if (kind == 0 && header_version == 0 && header_size == 0) break;  // zero padding
        if (header_version != entry_header_version || header_size < entry_header_min)
            return Error{"entry at " + hex(entry_offset) + " has header version " + hex(header_version) +
                         " and size " + hex(header_size)};
        if (!in_bounds(entries, e, header_size) || !in_bounds(entries, e + header_size, payload_size))
            return Error{"entry at " + hex(entry_offset) + " (header " + hex(header_size) + ", payload " +
                         hex(payload_size) + ") runs past its container"};
        FatbinImage image;
        image.raw_kind = kind;
        image.kind = kind_of(kind);
        image.flags = load_le<uint64_t>(entries, e + 0x28);
        image.version_minor = load_le<uint16_t>(entries, e + 0x18);
        image.version_major = load_le<uint16_t>(entries, e + 0x1A);
        image.sm = load_le<uint32_t>(entries, e + 0x1C);
        image.debug = image.flags & flag_debug;
        image.variant = (image.flags & flag_arch_specific)     ? Variant::arch_specific
                        : (image.flags & flag_family_specific) ? Variant::family_specific
                                                               : Variant::plain;
        uint32_t compressed_size = load_le<uint32_t>(entries, e + 0x10);
        image.uncompressed_size = load_le<uint64_t>(entries, e + 0x38);
        image.compression = (image.flags & flag_zstd)  ? Compression::zstd
                            : (image.flags & flag_lz4) ? Compression::lz4
                                                       : Compression::none;
        uint64_t stored = payload_size;
        if (image.compression != Compression::none) {
            if (compressed_size > payload_size)
                return Error{"entry at " + hex(entry_offset) + " compressed size " + hex(compressed_size) +
                             " exceeds its payload " + hex(payload_size)};
            stored = compressed_size;
        } else {
            image.uncompressed_size = payload_size;
        }
        image.payload = slice(entries, e + header_size, stored);
        image.stored_size = stored;
        // PTX and LTO-IR extension: u32 offset, u32 size of an options string.
        if (image.kind == ImageKind::ptx && header_size >= 0x48 &&
            load_le<uint32_t>(entries, e + 0x14) == 0x40) {
            uint32_t options_offset = load_le<uint32_t>(entries, e + 0x40);
            uint32_t options_size = load_le<uint32_t>(entries, e + 0x44);
            if (options_offset >= 0x48 &&
                in_bounds(slice(entries, e, header_size), options_offset, options_size)) {
                std::string options(slice(entries, e + options_offset, options_size));
                while (!options.empty() && (options.back() == ' ' || options.back() == '\0'))
                    options.pop_back();
                image.options = std::move(options);
            }
        }
        image.section = section;
        image.offset = entry_offset;
        image.container = file_offset + at;
        images.push_back(std::move(image));
        e += header_size + payload_size;
    }
    out.images.insert(out.images.end(), std::make_move_iterator(images.begin()),
                      std::make_move_iterator(images.end()));
    ++out.containers;
    return container_header_size + entries_size;
}

}  // namespace

std::string_view image_kind_name(ImageKind kind) {
    switch (kind) {
        case ImageKind::sass: return "sass";
        case ImageKind::ptx: return "ptx";
        case ImageKind::ltoir: return "lto-ir";
        case ImageKind::unknown: return "unknown";
    }
    return "unknown";
}

std::string_view compression_name(Compression compression) {
    switch (compression) {
        case Compression::none: return "none";
        case Compression::lz4: return "lz4";
        case Compression::zstd: return "zstd";
    }
    return "none";
}

std::string variant_suffix(Variant variant) {
    return variant == Variant::arch_specific ? "a" : variant == Variant::family_specific ? "f" : "";
}

std::string FatbinImage::target_name() const {
    std::string prefix = kind == ImageKind::ptx     ? "compute_"
                         : kind == ImageKind::ltoir ? "lto_"
                         : kind == ImageKind::sass  ? "sm_"
                                                    : "kind" + std::to_string(raw_kind) + "_";
    return prefix + std::to_string(sm) + variant_suffix(variant);
}

// The next container magic at or after `from`, searched a bounded window at a
// time. One memmem over the whole rest of a section would do the same work in
// a plain build, but AddressSanitizer's memmem checks its entire haystack
// before searching: once per container, over the rest of a library holding
// thousands of them, that is quadratic (90% of a sanitized `strata
// frameworks` run). Windows overlap by the magic's length less one byte, so a
// magic across a window's edge is found in the earlier window.
const char* find_container_magic(Bytes bytes, uint64_t from) {
    constexpr uint64_t window = uint64_t{1} << 20;
    while (from + sizeof container_magic <= bytes.size()) {
        uint64_t length = std::min<uint64_t>(window + sizeof container_magic - 1, bytes.size() - from);
        if (const void* hit = ::memmem(bytes.data() + from, length, container_magic, sizeof container_magic))
            return static_cast<const char*>(hit);
        from += window;
    }
    return nullptr;
}

void scan_bytes(Bytes bytes, uint64_t file_offset, const std::string& section, bool strict, FatbinScan& out) {
    uint64_t at = 0;
    while (at + 4 <= bytes.size()) {
        const char* hit = find_container_magic(bytes, at);
        if (!hit) break;
        at = static_cast<uint64_t>(hit - bytes.data());
        auto size = parse_container(bytes, at, file_offset, section, out);
        if (size) {
            at += *size;
            continue;
        }
        if (strict) out.warnings.push_back(section + ": " + size.error());
        at += 4;  // resynchronise past this magic
    }
}

FatbinScan scan_elf(const ElfFile& elf) {
    FatbinScan out;
    // Each byte range of the file is read once. Section headers may overlap
    // (a crafted file names the same bytes a thousand times, which would
    // otherwise list every container a thousand times): in file order, a
    // section is scanned only past what earlier sections already covered.
    std::vector<const ElfSection*> order;
    for (const ElfSection& section : elf.sections) {
        // Host code never holds containers; everything else with contents may
        // (libraries keep runtime-loaded fatbins in .ldata, .rodata, .cask_resource).
        if (section.type != elf_section_progbits || (section.flags & elf_flag_execinstr)) continue;
        if (!section.contents.empty()) order.push_back(&section);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const ElfSection* a, const ElfSection* b) { return a->offset < b->offset; });
    uint64_t covered_until = 0;
    for (const ElfSection* section : order) {
        uint64_t begin = section->offset, end = begin + section->contents.size();
        if (end <= covered_until) continue;
        uint64_t start = std::max(begin, covered_until);
        bool strict = section->name == ".nv_fatbin" || section->name == "__nv_relfatbin";
        scan_bytes(section->contents.substr(start - begin), start, section->name, strict, out);
        covered_until = end;
    }
    return out;
}

namespace {

// The most a payload can decompress to, whatever its entry declares: zstd's
// densest block is RLE (a 3-byte header and 1 byte for 128 KiB), LZ4's a
// sequence of 255-byte length extensions (about 255 bytes a byte). A 1.5 KB
// file whose entries each declared 2 GiB made strata zero-fill 2 GiB per
// entry before the decompressor said a word.
uint64_t producible_bytes(const FatbinImage& image) {
    uint64_t stored = image.payload.size();
    return image.compression == Compression::zstd ? stored * (128u << 10) / 4 + (128u << 10)
                                                  : stored * 255 + 64;
}

}  // namespace

Expected<uint64_t> container_size(Bytes file, uint64_t offset) {
    if (!in_bounds(file, offset, container_header_size) ||
        std::memcmp(file.data() + offset, container_magic, sizeof container_magic) != 0)
        return Error{"no fat binary at " + hex(offset)};
    uint16_t version = load_le<uint16_t>(file, offset + 4);
    uint16_t header = load_le<uint16_t>(file, offset + 6);
    uint64_t entries_size = load_le<uint64_t>(file, offset + 8);
    if (version != 1 || header != container_header_size)
        return Error{"the fat binary at " + hex(offset) + " has version " + std::to_string(version) +
                     " and header size " + std::to_string(header) + ", expected 1 and 16"};
    if (!in_bounds(file, offset + container_header_size, entries_size))
        return Error{"the fat binary at " + hex(offset) + " declares " + hex(entries_size) +
                     " bytes of entries, past the end of the file"};
    return container_header_size + entries_size;
}

Expected<std::string> image_contents(const FatbinImage& image) {
    if (image.compression == Compression::none) return std::string(image.payload);
    if (image.uncompressed_size == 0 || image.uncompressed_size > max_image_bytes)
        return Error{"entry at " + hex(image.offset) + " declares an uncompressed size of " +
                     hex(image.uncompressed_size)};
    uint64_t limit = std::min(image.uncompressed_size, producible_bytes(image));
    if (image.compression == Compression::zstd) {
        // A frame that names its size bounds the output exactly; one that is
        // no zstd frame at all is refused before anything is allocated.
        unsigned long long frame = ZSTD_getFrameContentSize(image.payload.data(), image.payload.size());
        if (frame == ZSTD_CONTENTSIZE_ERROR) return Error{"zstd: the payload is not a zstd frame"};
        if (frame != ZSTD_CONTENTSIZE_UNKNOWN) limit = std::min<uint64_t>(limit, frame);
    }
    std::string out(static_cast<size_t>(limit), '\0');
    if (image.compression == Compression::zstd) {
        size_t n = ZSTD_decompress(out.data(), out.size(), image.payload.data(), image.payload.size());
        if (ZSTD_isError(n)) return Error{std::string("zstd: ") + ZSTD_getErrorName(n)};
        out.resize(n);
        return out;
    }
    if (image.payload.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) return Error{"lz4 payload too large"};
    int n = LZ4_decompress_safe(image.payload.data(), out.data(), static_cast<int>(image.payload.size()),
                                static_cast<int>(std::min<uint64_t>(out.size(), INT32_MAX)));
    if (n < 0) return Error{"lz4: corrupt block at " + hex(image.offset)};
    out.resize(static_cast<size_t>(n));
    return out;
}

}  // namespace strata::arch
