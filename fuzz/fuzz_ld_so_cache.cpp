// /etc/ld.so.cache: a binary file whose offsets must never be trusted.
#include <cstdint>
#include <string>

#include "probes/ld_so_cache.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string error;
    auto cache =
        strata::parse_ld_so_cache(std::string_view(reinterpret_cast<const char*>(data), size), &error);
    if (cache)
        for (const auto& entry : cache->entries) (void)strata::ld_cache_entry_matches_this_arch(entry);
    return 0;
}
