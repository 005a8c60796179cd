#include "probes/ld_so_cache.h"

#include <catch2/catch.hpp>
#include <cstring>

#include "probes/probe_context.h"
#include "support/ld_cache_builder.h"

using namespace strata;
using strata::test::build_ld_cache;

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
    auto cache =
        parse_ld_so_cache(build_ld_cache({{"libcudart.so.13", "/usr/local/cuda/lib64/libcudart.so.13"}}));
    REQUIRE(cache);
    REQUIRE(cache->entries.size() == 1);
    CHECK(cache->entries[0].soname == "libcudart.so.13");
    CHECK(cache->entries[0].path == "/usr/local/cuda/lib64/libcudart.so.13");
    CHECK(ld_cache_entry_matches_this_arch(cache->entries[0]));
}

TEST_CASE("malformed caches are rejected with a reason, never read out of bounds") {
    std::string good = build_ld_cache({{"liba.so.1", "/lib/liba.so.1"}});
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
    auto cache = parse_ld_so_cache(legacy + build_ld_cache({{"libx.so.2", "/lib/libx.so.2"}}));
    REQUIRE(cache);
    CHECK(cache->entries.at(0).path == "/lib/libx.so.2");
}
