#include <catch2/catch.hpp>
#include <cstring>

#include "probes/ld_so_cache.h"
#include "probes/probe_context.h"

using namespace strata;

namespace {

// A new-format cache with the given (soname, path) entries for this arch.
std::string build_cache(const std::vector<std::pair<std::string, std::string>>& entries) {
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

}  // namespace

TEST_CASE("the machine's own ld.so.cache lists libc") {
    auto bytes = read_file("/etc/ld.so.cache", 64 << 20);
    REQUIRE(bytes);  // every glibc system has one
    std::string error;
    auto cache = parse_ld_so_cache(*bytes, &error);
    INFO(error);
    REQUIRE(cache);
    bool libc = false;
    for (const LdCacheEntry& entry : cache->entries)
        if (entry.soname == "libc.so.6" && ld_cache_entry_matches_this_arch(entry)) libc = true;
    CHECK(libc);
}

TEST_CASE("a synthetic cache round-trips") {
    auto cache = parse_ld_so_cache(build_cache({{"libcudart.so.13", "/usr/local/cuda/lib64/libcudart.so.13"}}));
    REQUIRE(cache);
    REQUIRE(cache->entries.size() == 1);
    CHECK(cache->entries[0].soname == "libcudart.so.13");
    CHECK(cache->entries[0].path == "/usr/local/cuda/lib64/libcudart.so.13");
    CHECK(ld_cache_entry_matches_this_arch(cache->entries[0]));
}

TEST_CASE("malformed caches are rejected with a reason, never read out of bounds") {
    std::string good = build_cache({{"liba.so.1", "/lib/liba.so.1"}});
    std::string error;
    CHECK_FALSE(parse_ld_so_cache("", &error));
    CHECK(error == "no glibc-ld.so.cache1.1 header");
    CHECK_FALSE(parse_ld_so_cache(good.substr(0, 30), &error));
    CHECK(error == "header truncated");
    std::string huge = good;
    uint32_t count = 0x10000000;
    std::memcpy(huge.data() + 20, &count, 4);
    CHECK_FALSE(parse_ld_so_cache(huge, &error));
    CHECK(error.find("runs past the end") != std::string::npos);
    std::string bad_offset = good;
    uint32_t offset = 0xfffffff0;
    std::memcpy(bad_offset.data() + 48 + 4, &offset, 4);
    CHECK_FALSE(parse_ld_so_cache(bad_offset, &error));
    CHECK(error == "entry 0 points outside the string table");
    std::string unterminated = good.substr(0, good.size() - 1);
    CHECK_FALSE(parse_ld_so_cache(unterminated, &error));
    // Every truncation of a valid cache either parses or is refused cleanly.
    for (size_t n = 0; n < good.size(); ++n) (void)parse_ld_so_cache(good.substr(0, n));
}

TEST_CASE("the legacy table before the new format is skipped") {
    std::string legacy = "ld.so-1.7.0";
    legacy.resize(12, '\0');
    uint32_t nlibs = 1;
    legacy.append(reinterpret_cast<const char*>(&nlibs), 4);
    legacy.append(12, '\0');  // one legacy entry
    legacy.resize((legacy.size() + 7) & ~size_t{7}, '\0');
    // The new format's offsets are relative to its own header.
    auto cache = parse_ld_so_cache(legacy + build_cache({{"libx.so.2", "/lib/libx.so.2"}}));
    REQUIRE(cache);
    CHECK(cache->entries.at(0).path == "/lib/libx.so.2");
}
