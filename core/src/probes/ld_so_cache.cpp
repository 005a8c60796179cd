#include "probes/ld_so_cache.h"

#include <cstring>

namespace strata {

namespace {

constexpr std::string_view legacy_magic = "ld.so-1.7.0";
constexpr std::string_view new_magic = "glibc-ld.so.cache1.1";
constexpr size_t legacy_header_size = 16;  // magic padded to 12 + uint32 nlibs
constexpr size_t legacy_entry_size = 12;   // int32 flags, uint32 key, uint32 value
constexpr size_t new_header_size = 48;
constexpr size_t new_entry_size = 24;  // flags, key, value, osversion, uint64 hwcap

uint32_t load_u32(std::string_view bytes, size_t offset) {
    uint32_t value = 0;
    std::memcpy(&value, bytes.data() + offset, sizeof value);  // the cache is host-endian
    return value;
}

bool fail(std::string* error, std::string message) {
    if (error) *error = std::move(message);
    return false;
}

// A NUL-terminated string at `offset` inside `bytes`, or nullopt.
std::optional<std::string> string_at(std::string_view bytes, uint32_t offset) {
    if (offset >= bytes.size()) return std::nullopt;
    size_t end = bytes.find('\0', offset);
    if (end == std::string_view::npos) return std::nullopt;
    return std::string(bytes.substr(offset, end - offset));
}

}  // namespace

std::optional<LdCache> parse_ld_so_cache(std::string_view bytes, std::string* error) {
    size_t start = 0;
    if (bytes.substr(0, legacy_magic.size()) == legacy_magic) {
        if (bytes.size() < legacy_header_size) {
            fail(error, "legacy header truncated");
            return std::nullopt;
        }
        uint64_t nlibs = load_u32(bytes, 12);
        uint64_t table_end = legacy_header_size + nlibs * legacy_entry_size;
        start = static_cast<size_t>((table_end + 7) & ~uint64_t{7});  // new format is 8-aligned
        if (table_end > bytes.size() || start > bytes.size()) {
            fail(error, "legacy table of " + std::to_string(nlibs) + " entries runs past the end");
            return std::nullopt;
        }
    }
    std::string_view cache = bytes.substr(start);
    if (cache.substr(0, new_magic.size()) != new_magic) {
        fail(error, "no glibc-ld.so.cache1.1 header");
        return std::nullopt;
    }
    if (cache.size() < new_header_size) {
        fail(error, "header truncated");
        return std::nullopt;
    }
    uint64_t nlibs = load_u32(cache, 20);
    if (nlibs > (cache.size() - new_header_size) / new_entry_size) {
        fail(error, "entry table of " + std::to_string(nlibs) + " entries runs past the end");
        return std::nullopt;
    }
    LdCache out;
    out.entries.reserve(static_cast<size_t>(nlibs));
    for (uint64_t i = 0; i < nlibs; ++i) {
        size_t at = new_header_size + static_cast<size_t>(i) * new_entry_size;
        int32_t flags = static_cast<int32_t>(load_u32(cache, at));
        // String offsets are relative to the start of the new-format header.
        auto soname = string_at(cache, load_u32(cache, at + 4));
        auto path = string_at(cache, load_u32(cache, at + 8));
        if (!soname || !path) {
            fail(error, "entry " + std::to_string(i) + " points outside the string table");
            return std::nullopt;
        }
        out.entries.push_back({std::move(*soname), std::move(*path), flags});
    }
    return out;
}

bool ld_cache_entry_matches_this_arch(const LdCacheEntry& entry) {
    constexpr int32_t type_mask = 0x00ff, required_mask = 0xff00, elf_libc6 = 0x0003;
    if ((entry.flags & type_mask) != elf_libc6) return false;
#if defined(__x86_64__)
    return (entry.flags & required_mask) == 0x0300;
#elif defined(__aarch64__)
    return (entry.flags & required_mask) == 0x0a00;
#else
    return true;
#endif
}

}  // namespace strata
