// Slurm hostlists from --expect and SLURM_JOB_NODELIST: any bytes. What
// expands must compress to a list that expands to the same names.
#include <cstdint>
#include <set>
#include <string>

#include "hostlist.h"
#include "model/usage_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        // A small limit keeps each run fast; the limit itself is what is tested.
        std::vector<std::string> names = strata::fleet::expand_hostlist(text, 10'000);
        if (names.empty() || names.size() > 10'000) __builtin_trap();
        std::string compressed = strata::fleet::compress_hostlist(names);
        std::vector<std::string> again = strata::fleet::expand_hostlist(compressed, 10'000);
        if (std::set<std::string>(names.begin(), names.end()) !=
            std::set<std::string>(again.begin(), again.end()))
            __builtin_trap();
    } catch (const strata::UsageError&) {
    }
    return 0;
}
