#include "rollout_report.h"

#include <cstdio>
#include <sstream>

#include "benchmark_metric.h"
#include "change_text.h"
#include "report/markdown_cell.h"
#include "rollout_wording.h"

namespace strata::fleet {

std::string render_rollout_text(const RolloutResult& result) {
    std::ostringstream out;
    out << "decision: " << decision_name(result.decision) << "\n";
    for (const std::string& reason : result.reasons) out << "  - " << reason << "\n";
    out << "\nBASE: " << side_text(result.base) << "\nCAND: " << side_text(result.candidate) << "\n";
    if (!result.changes.empty()) {
        out << "\nwhat changed:\n";
        for (const EnvironmentChange& change : result.changes)
            out << "  " << change.label << ": " << join_items(change.base, " | ") << " -> "
                << join_items(change.candidate, " | ") << "  (" << role_name(change.role) << ")\n";
    }
    if (!result.checks.empty()) {
        out << "\ncompatibility:\n";
        for (const CheckChange& change : result.checks)
            out << "  " << check_kind_name(change.kind) << ": " << change.id
                << (change.device ? " (GPU " + std::to_string(*change.device) + ")" : "") << "  "
                << status_name(change.base) << " -> " << status_name(change.candidate)
                << (change.nodes.empty() ? "" : "  on " + join_items(change.nodes, ", ")) << "\n      "
                << change.summary << "\n";
    }
    if (!result.benchmarks.empty()) {
        char threshold[32];
        std::snprintf(threshold, sizeof threshold, "%.1f%%", result.options.threshold * 100);
        out << "\nperformance (CAND against BASE, each in its own metric; threshold " << threshold
            << " of performance, " << static_cast<int>(result.options.confidence * 100) << "% intervals):\n";
        for (std::string_view group : kBenchmarkGroups) {
            size_t loaded_proofs = 0;
            std::vector<const BenchmarkJudgement*> judged = in_group(result, group, loaded_proofs);
            if (judged.empty() && loaded_proofs == 0) continue;
            out << "  " << group << ":\n";
            if (loaded_proofs > 0) out << "    go  " << loaded_proofs_text(loaded_proofs) << "\n";
            for (const BenchmarkJudgement* j : judged) {
                std::string quoted = quoted_medians(*j);
                out << "    " << decision_name(j->decision) << "  " << j->name << "  " << change_of(*j)
                    << "  [" << j->metric
                    << (j->bigger_is_better ? ", bigger is better" : ", smaller is better") << "; "
                    << evidence_name(j->evidence) << "]\n        " << (quoted.empty() ? "" : quoted + "; ")
                    << j->reason << "\n";
            }
        }
        if (result.geometric_mean_performance)
            out << "  geometric mean over the benchmarks: "
                << bench::change_text(1 / *result.geometric_mean_performance, "real_time", false) << "\n";
    }
    if (!result.notes.empty()) {
        out << "\nnotes:\n";
        for (const std::string& note : result.notes) out << "  - " << note << "\n";
    }
    return out.str();
}

std::string render_rollout_markdown(const RolloutResult& result) {
    std::ostringstream out;
    out << "## Driver rollout: **" << decision_name(result.decision) << "**\n\n";
    for (const std::string& reason : result.reasons) out << "- " << markdown_cell(reason) << "\n";
    out << "\n| side | records |\n|---|---|\n| BASE | " << markdown_cell(side_text(result.base))
        << " |\n| CAND | " << markdown_cell(side_text(result.candidate)) << " |\n";
    if (!result.changes.empty()) {
        out << "\n### What changed\n\n| field | BASE | CAND | role |\n|---|---|---|---|\n";
        for (const EnvironmentChange& change : result.changes)
            out << "| " << markdown_cell(change.label) << " | "
                << markdown_cell(join_items(change.base, ", ")) << " | "
                << markdown_cell(join_items(change.candidate, ", ")) << " | " << role_name(change.role)
                << " |\n";
    }
    if (!result.checks.empty()) {
        out << "\n### Compatibility\n\n| check | BASE | CAND | change | nodes | summary "
               "|\n|---|---|---|---|---|---|\n";
        for (const CheckChange& change : result.checks)
            out << "| "
                << markdown_cell(change.id +
                                 (change.device ? " (GPU " + std::to_string(*change.device) + ")" : ""))
                << " | " << status_name(change.base) << " | " << status_name(change.candidate) << " | "
                << check_kind_name(change.kind) << " | " << markdown_cell(join_items(change.nodes, ", "))
                << " | " << markdown_cell(change.summary) << " |\n";
    }
    if (!result.benchmarks.empty()) {
        out << "\n### Performance\n";
        for (std::string_view group : kBenchmarkGroups) {
            size_t loaded_proofs = 0;
            std::vector<const BenchmarkJudgement*> judged = in_group(result, group, loaded_proofs);
            if (judged.empty() && loaded_proofs == 0) continue;
            out << "\n#### " << group
                << "\n\n| benchmark | decision | change [interval] | BASE, CAND | metric | evidence |\n"
                   "|---|---|---:|---|---|---|\n";
            if (loaded_proofs > 0)
                out << "| " << markdown_cell(loaded_proofs_text(loaded_proofs)) << " | go | | | | |\n";
            for (const BenchmarkJudgement* j : judged)
                out << "| " << markdown_cell(j->name) << " | " << decision_name(j->decision) << " | "
                    << markdown_cell(change_of(*j)) << " | " << markdown_cell(quoted_medians(*j)) << " | "
                    << markdown_cell(j->metric) << " | "
                    << markdown_cell(std::string(evidence_name(j->evidence))) << " |\n";
        }
    }
    if (!result.notes.empty()) {
        out << "\n### Notes\n\n";
        for (const std::string& note : result.notes) out << "- " << markdown_cell(note) << "\n";
    }
    return out.str();
}

Json rollout_to_json(const RolloutResult& result) {
    auto optional = [](const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); };
    auto side = [](const RolloutSide& s) {
        return Json{{"records", s.records}, {"nodes", s.nodes}, {"measured", s.measured}};
    };
    Json changes = Json::array();
    for (const EnvironmentChange& c : result.changes)
        changes.push_back({{"field", c.label},
                           {"base", c.base},
                           {"candidate", c.candidate},
                           {"role", role_name(c.role)},
                           {"why", c.why}});
    Json checks = Json::array();
    for (const CheckChange& c : result.checks)
        checks.push_back({{"id", c.id},
                          {"device", c.device ? Json(*c.device) : Json(nullptr)},
                          {"base", status_name(c.base)},
                          {"candidate", status_name(c.candidate)},
                          {"change", check_kind_name(c.kind)},
                          {"nodes", c.nodes},
                          {"summary", c.summary}});
    Json benchmarks = Json::array();
    for (const BenchmarkJudgement& j : result.benchmarks) {
        Json node_ratios = Json::array();
        for (const auto& [node, ratio] : j.node_ratios)
            node_ratios.push_back({{"node", node}, {"ratio", ratio}});
        benchmarks.push_back({{"name", j.name},
                              {"metric", j.metric},
                              {"bigger_is_better", j.bigger_is_better},
                              {"ratio", optional(j.ratio)},
                              {"low", optional(j.low)},
                              {"high", optional(j.high)},
                              {"confidence", j.confidence},
                              {"p_value", optional(j.p_value)},
                              {"evidence", evidence_name(j.evidence)},
                              {"base_units", j.base_units},
                              {"candidate_units", j.candidate_units},
                              {"decision", decision_name(j.decision)},
                              {"reason", j.reason},
                              {"group", benchmark_group(j.name)},
                              {"base_value", optional(j.base_value)},
                              {"candidate_value", optional(j.candidate_value)},
                              {"node_ratios", node_ratios},
                              {"quoted", quoted_medians(j)}});
    }
    return {{"schema_version", rollout_schema_version},
            {"decision", decision_name(result.decision)},
            {"reasons", result.reasons},
            {"threshold", result.options.threshold},
            {"confidence", result.options.confidence},
            {"base", side(result.base)},
            {"candidate", side(result.candidate)},
            {"changes", changes},
            {"checks", checks},
            {"benchmarks", benchmarks},
            {"only_in_base", result.only_in_base},
            {"only_in_candidate", result.only_in_candidate},
            {"geometric_mean_performance", optional(result.geometric_mean_performance)},
            {"notes", result.notes}};
}

}  // namespace strata::fleet
