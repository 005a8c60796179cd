// `strata explain` input: any pasted text, of any size and encoding.
#include <cstdint>
#include <string_view>

#include "explain/explain.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    for (bool in_container : {false, true}) {
        auto found = strata::classify_error(text, in_container);
        // A classification always says what it matched and what class it chose.
        if (found.rule && (found.matched.empty() || found.failure_class.empty())) __builtin_trap();
    }
    return 0;
}
