#include "rollout_wording.h"

#include "benchmark_metric.h"

namespace strata::fleet {

std::string join_items(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
    return out;
}

std::string side_text(const RolloutSide& side) {
    return std::to_string(side.records) + " record(s) from " + std::to_string(side.nodes.size()) +
           " node(s)" + (side.nodes.size() <= 6 ? " (" + join_items(side.nodes, ", ") + ")" : "") + ", " +
           std::to_string(side.measured) + " with benchmarks";
}

std::string_view role_name(FieldRole role) {
    switch (role) {
        case FieldRole::driver: return "driver";
        case FieldRole::invalidating: return "invalidates";
        case FieldRole::informational: return "noted";
    }
    return "noted";
}

std::string_view check_kind_name(CheckChangeKind kind) {
    switch (kind) {
        case CheckChangeKind::regressed: return "regressed";
        case CheckChangeKind::improved: return "improved";
        case CheckChangeKind::only_in_base: return "only in BASE";
        case CheckChangeKind::only_in_candidate: return "only in CAND";
        case CheckChangeKind::fails_on_both: return "fails on both";
    }
    return "";
}

std::string quoted_medians(const BenchmarkJudgement& j) {
    if (!j.base_value || !j.candidate_value) return "";
    return "BASE " + quoted_value(j.metric, *j.base_value) + ", CAND " +
           quoted_value(j.metric, *j.candidate_value);
}

std::vector<const BenchmarkJudgement*> in_group(const RolloutResult& result, std::string_view group,
                                                size_t& loaded_proofs) {
    std::vector<const BenchmarkJudgement*> out;
    loaded_proofs = 0;
    for (const BenchmarkJudgement& j : result.benchmarks) {
        if (benchmark_group(j.name) != group) continue;
        if (bench::is_load_proof(j.name) && j.decision == Decision::go)
            ++loaded_proofs;
        else
            out.push_back(&j);
    }
    return out;
}

std::string loaded_proofs_text(size_t count) {
    return "driver/jit_installed: " + std::to_string(count) +
           " installed fat binaries JIT-compiled and loaded by CAND as by BASE (their time is in the total)";
}

}  // namespace strata::fleet
