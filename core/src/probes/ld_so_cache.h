// Reads glibc's /etc/ld.so.cache (the "glibc-ld.so.cache1.1" format, alone
// or after the legacy "ld.so-1.7.0" table) to learn where the dynamic loader
// will find a soname that LD_LIBRARY_PATH does not provide. The file is
// untrusted input: every offset is bounds-checked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct LdCacheEntry {
    std::string soname;  // "libcudart.so.13"
    std::string path;    // "/usr/local/cuda/lib64/libcudart.so.13"
    int32_t flags = 0;   // glibc's FLAG_* bits: library type and architecture
};

struct LdCache {
    std::vector<LdCacheEntry> entries;  // in the loader's lookup order
};

// nullopt when the bytes are not a cache this reader understands; `error`
// then says why.
std::optional<LdCache> parse_ld_so_cache(std::string_view bytes, std::string* error = nullptr);

// True when an entry's flags say it is for the architecture this process
// runs on (x86-64 or AArch64 64-bit libc6 libraries).
bool ld_cache_entry_matches_this_arch(const LdCacheEntry& entry);

}  // namespace strata
