// Run records and Google Benchmark files given to `strata rollout` (and the
// fleet commands): any bytes, as JSON.
#include <cstdint>
#include <string>

#include "model/usage_error.h"
#include "record.h"
#include "rollout.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        strata::fleet::NodeRecord record = strata::fleet::parse_node_record(text, "fuzz.json");
        // A record judged against itself changed nothing: never a no-go.
        std::vector<strata::fleet::NodeRecord> side{record};
        auto result = strata::fleet::decide_rollout(side, side, {});
        if (result.decision == strata::fleet::Decision::no_go) __builtin_trap();
    } catch (const strata::UsageError&) {
        // the one documented way to refuse input
    }
    return 0;
}
