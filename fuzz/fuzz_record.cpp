// Run records and Google Benchmark files given to `strata rollout` and
// `strata fleet`: any bytes, as JSON.
#include <cstdint>
#include <string>

#include "fleet.h"
#include "fleet_report.h"
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
        // Three copies of one node under other names: identical, so never an
        // outlier or a configuration that differs.
        std::vector<strata::fleet::NodeRecord> fleet(3, record);
        for (size_t i = 0; i < fleet.size(); ++i) fleet[i].node = "n" + std::to_string(i);
        auto analysis = strata::fleet::analyze_fleet(fleet, {});
        for (const auto& problem : analysis.problems)
            if (problem.kind == strata::fleet::ProblemKind::outlier ||
                problem.kind == strata::fleet::ProblemKind::configuration)
                __builtin_trap();
        (void)strata::fleet::render_fleet_text(analysis);
        (void)strata::fleet::fleet_to_json(analysis).dump();
        (void)strata::fleet::render_fleet_prometheus(analysis);
        (void)strata::fleet::drain_commands(analysis);
    } catch (const strata::UsageError&) {
        // the one documented way to refuse input
    }
    return 0;
}
