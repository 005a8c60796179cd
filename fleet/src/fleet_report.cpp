#include "fleet_report.h"

#include <set>
#include <sstream>

#include "benchmark_metric.h"
#include "fleet_wording.h"
#include "hostlist.h"
#include "report/markdown_cell.h"
#include "report/prometheus_text.h"

namespace strata::fleet {

namespace {

// Slurm keeps a reason as given; a short one fits `sinfo -R`'s column.
constexpr size_t kMaxReasonLength = 120;

}  // namespace

std::string render_fleet_text(const FleetResult& result) {
    std::ostringstream out;
    out << "fleet: " << fleet_headline(result) << "\n";
    if (!result.problems.empty() || !result.unreadable.empty() || !result.not_judged.empty()) out << "\n";
    for (const UnreadableRecord& record : result.unreadable)
        out << "  FAIL  " << unreadable_line(record) << "\n";
    if (!result.not_judged.empty()) out << "  FAIL  " << result.not_judged << "\n";
    for (const FleetProblem& problem : result.problems)
        out << "  " << problem_marker(problem) << "  " << problem.line << "\n";
    out << "\ngroups of like nodes (same GPUs, driver and libraries):\n";
    for (const FleetGroup& group : result.groups)
        out << "  " << group_text(group, result.options.min_group) << "\n";
    if (!result.notes.empty()) {
        out << "\nnotes:\n";
        for (const std::string& note : result.notes) out << "  - " << note << "\n";
    }
    return out.str();
}

Json fleet_to_json(const FleetResult& result) {
    Json problems = Json::array();
    for (const FleetProblem& problem : result.problems) {
        Json item = {{"kind", std::string(problem_kind_name(problem.kind))},
                     {"attention", problem.attention},
                     {"subject", problem.subject},
                     {"nodes", problem.nodes},
                     {"line", problem.line},
                     {"reason", problem.reason}};
        if (problem.kind == ProblemKind::outlier) {
            item["group"] = problem.group;
            Json deviations = Json::array();
            for (const NodeDeviation& d : problem.deviations)
                deviations.push_back({{"benchmark", d.benchmark},
                                      {"group", benchmark_group(d.benchmark)},
                                      {"metric", d.metric},
                                      {"value", d.value},
                                      {"group_median", d.group_median},
                                      {"relative", d.deviation},
                                      {"robust_deviations", d.scaled}});
            item["deviations"] = deviations;
        }
        problems.push_back(std::move(item));
    }
    Json groups = Json::array();
    for (const FleetGroup& group : result.groups)
        groups.push_back({{"description", group.description},
                          {"nodes", group.nodes},
                          {"benchmarks_judged", group.benchmarks_judged},
                          {"too_few_nodes", group.too_small}});
    Json unreadable = Json::array();
    for (const UnreadableRecord& record : result.unreadable)
        unreadable.push_back({{"path", record.path}, {"reason", record.reason}});
    Json attention = Json::array();
    for (const std::string& node : result.attention)
        attention.push_back({{"node", node}, {"reason", result.node_reason.at(node)}});
    Json out = {{"schema_version", fleet_schema_version},
                {"records", result.records},
                {"nodes", result.nodes},
                {"missing", result.missing},
                {"unexpected", result.unexpected},
                {"attention", attention},
                {"problems", problems},
                {"groups", groups},
                {"notes", result.notes},
                {"unreadable", unreadable},
                {"not_judged", result.not_judged.empty() ? Json() : Json(result.not_judged)},
                {"options",
                 {{"expected", result.options.expected},
                  {"expected_from", result.options.expected_from},
                  {"min_deviation", result.options.min_deviation},
                  {"spread_floor", result.options.spread_floor},
                  {"outlier_scale", kOutlierScale},
                  {"min_group", result.options.min_group},
                  {"metric", result.options.metric},
                  {"ignore_checks", result.options.ignore_checks}}}};
    return out;
}

std::string render_fleet_markdown(const FleetResult& result) {
    std::ostringstream out;
    out << "## strata fleet\n\n" << markdown_cell(fleet_headline(result)) << "\n\n";
    if (!result.problems.empty() || !result.unreadable.empty() || !result.not_judged.empty()) {
        out << "| | problem | nodes |\n|---|---|---|\n";
        for (const UnreadableRecord& record : result.unreadable)
            out << "| FAIL | " << markdown_cell(unreadable_line(record)) << " | |\n";
        if (!result.not_judged.empty()) out << "| FAIL | " << markdown_cell(result.not_judged) << " | |\n";
        for (const FleetProblem& problem : result.problems)
            out << "| " << problem_marker(problem) << " | " << markdown_cell(problem.line) << " | "
                << markdown_cell(compress_hostlist(problem.nodes)) << " |\n";
        out << "\n";
    }
    out << "### Groups of like nodes\n\n";
    for (const FleetGroup& group : result.groups)
        out << "- " << markdown_cell(group_text(group, result.options.min_group)) << "\n";
    if (!result.notes.empty()) {
        out << "\n### Notes\n\n";
        for (const std::string& note : result.notes) out << "- " << markdown_cell(note) << "\n";
    }
    return out.str();
}

std::string render_fleet_prometheus(const FleetResult& result) {
    PrometheusText out;
    out.family("strata_fleet_nodes", "Nodes by state: expected, reported, missing, attention");
    out.sample("strata_fleet_nodes", {{"state", "expected"}},
               static_cast<double>(result.options.expected.size()));
    out.sample("strata_fleet_nodes", {{"state", "reported"}}, static_cast<double>(result.nodes.size()));
    out.sample("strata_fleet_nodes", {{"state", "missing"}}, static_cast<double>(result.missing.size()));
    out.sample("strata_fleet_nodes", {{"state", "attention"}}, static_cast<double>(result.attention.size()));
    out.family("strata_fleet_unreadable_records",
               "Record files that could not be read (truncated, malformed, oversized); their nodes count as "
               "not reported");
    out.sample("strata_fleet_unreadable_records", {}, static_cast<double>(result.unreadable.size()));
    out.family("strata_fleet_benchmarks_judged",
               "Benchmarks judged for outliers, over all groups of like nodes (0 with measurements: nothing "
               "was judged)");
    size_t judged = 0;
    for (const FleetGroup& group : result.groups) judged += group.benchmarks_judged;
    out.sample("strata_fleet_benchmarks_judged", {}, static_cast<double>(judged));
    out.family("strata_fleet_node_attention",
               "1 for a node that needs attention (a failed check, no record, another configuration, an "
               "outlier), else 0");
    std::set<std::string> all(result.nodes.begin(), result.nodes.end());
    all.insert(result.missing.begin(), result.missing.end());
    std::set<std::string> attention(result.attention.begin(), result.attention.end());
    for (const std::string& node : all)
        out.sample("strata_fleet_node_attention", {{"node", node}}, attention.count(node) ? 1 : 0);
    out.family("strata_fleet_problems", "Problems found, by kind");
    std::map<std::string, int> kinds;
    for (ProblemKind kind :
         {ProblemKind::check_failed, ProblemKind::missing, ProblemKind::benchmark_failed,
          ProblemKind::configuration, ProblemKind::outlier, ProblemKind::not_measured, ProblemKind::warning})
        kinds[std::string(problem_kind_name(kind))] = 0;
    for (const FleetProblem& problem : result.problems) ++kinds[std::string(problem_kind_name(problem.kind))];
    for (const auto& [kind, count] : kinds) out.sample("strata_fleet_problems", {{"kind", kind}}, count);
    return out.render();
}

DrainPlan drain_commands(const FleetResult& result) {
    DrainPlan out;
    for (const std::string& node : result.attention) {
        bool plain =
            !node.empty() && node.size() <= 255 && node[0] != '-' &&
            node.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                std::string::npos;
        if (!plain) {
            out.refused.push_back(node);
            continue;
        }
        // Slurm stores the reason and prints it on admins' terminals: no
        // control character, C0, DEL or C1 (ESC [ 8 m hid what followed).
        std::string reason;
        const std::string& raw = result.node_reason.at(node);
        for (size_t i = 0; i < raw.size(); ++i) {
            auto c = static_cast<unsigned char>(raw[i]);
            if (c == 0xC2 && i + 1 < raw.size() && static_cast<unsigned char>(raw[i + 1]) >= 0x80 &&
                static_cast<unsigned char>(raw[i + 1]) <= 0x9F) {
                reason += ' ';
                ++i;
            } else {
                reason += c < 0x20 || c == 0x7F ? ' ' : static_cast<char>(c);
            }
        }
        reason = "strata-fleet: " + reason;
        if (reason.size() > kMaxReasonLength) reason = reason.substr(0, kMaxReasonLength - 3) + "...";
        out.commands.push_back({"scontrol", "update", "nodename=" + node, "state=drain", "reason=" + reason});
    }
    return out;
}

std::string shell_command(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& word : argv) {
        bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-=./:,+@%[]") == std::string::npos;
        std::string quoted = "'";
        for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        quoted += "'";
        out += (out.empty() ? "" : " ") + (plain ? word : quoted);
    }
    return out;
}

}  // namespace strata::fleet
