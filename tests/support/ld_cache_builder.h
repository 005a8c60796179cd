// Writes glibc ld.so.cache bytes (new format) for tests: parser cases and
// fixture machines whose loader cache lists chosen libraries.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace strata::test {

// A new-format cache with the given (soname, path) entries for this arch.
inline std::string build_ld_cache(const std::vector<std::pair<std::string, std::string>>& entries) {
    std::string header = "glibc-ld.so.cache1.1";
    std::string strings;
    std::vector<std::pair<uint32_t, uint32_t>> offsets;
    size_t strings_start = 48 + entries.size() * 24;
    for (const auto& [soname, path] : entries) {
        uint32_t key = static_cast<uint32_t>(strings_start + strings.size());
        strings += soname + '\0';
        uint32_t value = static_cast<uint32_t>(strings_start + strings.size());
        strings += path + '\0';
        offsets.emplace_back(key, value);
    }
    std::string out = header;
    auto put32 = [&](uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
    put32(static_cast<uint32_t>(entries.size()));
    put32(static_cast<uint32_t>(strings.size()));
    out.append(4, '\0');  // flags + padding
    put32(0);             // extension offset
    out.append(12, '\0');
    for (const auto& [key, value] : offsets) {
#if defined(__aarch64__)
        put32(0x0a03);
#else
        put32(0x0303);
#endif
        put32(key);
        put32(value);
        put32(0);
        out.append(8, '\0');
    }
    return out + strings;
}

}  // namespace strata::test
