// `strata rollout --html FILE`: the decision and its reasons first, then what
// changed, compatibility, and the forest plot of every benchmark with the
// table of its numbers (the same rows the text prints, in the same words).
#include <cstdio>

#include "benchmark_metric.h"
#include "change_text.h"
#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"
#include "rollout_report.h"
#include "rollout_wording.h"

namespace strata::fleet {

namespace {

// CAND/BASE of the metric as performance (above 1 better): a time's ratio
// is inverted, so every row of the plot reads the same way.
double performance(const BenchmarkJudgement& j, double ratio) {
    return j.bigger_is_better ? ratio : 1 / ratio;
}

ForestRow forest_row(const BenchmarkJudgement& j, std::string_view group) {
    ForestRow row;
    row.label = j.name;
    row.group = std::string(group);
    row.decision = std::string(decision_name(j.decision));
    row.change = change_of(j);
    std::string quoted = quoted_medians(j);
    row.description = j.name + ": " + row.decision + ", " + row.change +
                      (quoted.empty() ? "" : "; " + quoted) + "; " + j.reason;
    if (j.ratio && j.low && j.high) {
        row.estimate = performance(j, *j.ratio);
        double a = performance(j, *j.low), b = performance(j, *j.high);
        row.low = std::min(a, b);
        row.high = std::max(a, b);
    }
    for (const auto& [node, ratio] : j.node_ratios) row.points.emplace_back(node, performance(j, ratio));
    return row;
}

std::string performance_section(const RolloutResult& result) {
    char threshold[32];
    std::snprintf(threshold, sizeof threshold, "%.1f%%", result.options.threshold * 100);
    std::string out = element("h2", "Performance");
    out +=
        element("p", "CAND against BASE, each benchmark in its own metric; a loss of performance beyond " +
                         std::string(threshold) + " matters; " +
                         std::to_string(static_cast<int>(result.options.confidence * 100)) +
                         "% intervals. In the plot right is better: a time's ratio is inverted. Marks: " +
                         "disc go, square no-go, hollow diamond inconclusive; dots below a row are nodes.");
    ForestPlot plot;
    plot.title = "Forest plot: CAND/BASE performance of each benchmark with its interval, against the " +
                 std::string(threshold) + " threshold";
    plot.threshold = result.options.threshold;
    HtmlTable table{"The numbers behind the plot",
                    {"group", "benchmark", "decision", "change [interval]", "BASE, CAND", "metric",
                     "evidence", "nodes or repetitions", "p", "reason"},
                    {false, false, false, false, false, false, false, true, true, false},
                    {},
                    {}};
    std::vector<std::string> loaded_lines;
    for (std::string_view group : kBenchmarkGroups) {
        size_t loaded_proofs = 0;
        std::vector<const BenchmarkJudgement*> judged = in_group(result, group, loaded_proofs);
        if (loaded_proofs > 0) loaded_lines.push_back(loaded_proofs_text(loaded_proofs));
        for (const BenchmarkJudgement* j : judged) {
            plot.rows.push_back(forest_row(*j, group));
            char p[32] = "-";
            if (j->p_value) std::snprintf(p, sizeof p, "%.3g", *j->p_value);
            table.rows.push_back(
                {j->name, std::string(decision_name(j->decision)), change_of(*j), quoted_medians(*j),
                 j->metric + (j->bigger_is_better ? " (bigger is better)" : " (smaller is better)"),
                 std::string(evidence_name(j->evidence)),
                 std::to_string(j->base_units) + " / " + std::to_string(j->candidate_units), p, j->reason});
            table.row_classes.push_back(std::string(decision_name(j->decision)));
        }
    }
    for (const std::string& line : loaded_lines) out += element("p", "go: " + line);
    if (!plot.rows.empty()) out += "<figure>\n" + render_forest_plot(plot) + "</figure>\n";
    out += render_table(table);
    if (result.geometric_mean_performance)
        out +=
            element("p", "geometric mean over the benchmarks: " +
                             bench::change_text(1 / *result.geometric_mean_performance, "real_time", false));
    return out;
}

}  // namespace

std::string render_rollout_html(const RolloutResult& result) {
    std::string decision(decision_name(result.decision));
    std::string body = "<h1>Driver rollout: " + badge(decision, decision) + "</h1>\n";
    body += "<p class=\"decision\">decision: <strong>" + html_escape(decision) + "</strong></p>\n";
    body += bullet_list(result.reasons);
    body += render_table({"The two sides",
                          {"side", "records"},
                          {},
                          {{"BASE", side_text(result.base)}, {"CAND", side_text(result.candidate)}},
                          {}});
    if (!result.changes.empty()) {
        HtmlTable changes{"What changed", {"field", "BASE", "CAND", "role", "why"}, {}, {}, {}};
        for (const EnvironmentChange& change : result.changes) {
            changes.rows.push_back({change.label, join_items(change.base, ", "),
                                    join_items(change.candidate, ", "), std::string(role_name(change.role)),
                                    change.why});
            changes.row_classes.push_back(change.role == FieldRole::invalidating ? "inconclusive" : "");
        }
        body += element("h2", "What changed") + render_table(changes);
    }
    if (!result.checks.empty()) {
        HtmlTable checks{"Compatibility: checks whose status differs",
                         {"check", "BASE", "CAND", "change", "nodes", "summary"},
                         {},
                         {},
                         {}};
        for (const CheckChange& change : result.checks) {
            checks.rows.push_back(
                {change.id + (change.device ? " (GPU " + std::to_string(*change.device) + ")" : ""),
                 std::string(status_name(change.base)), std::string(status_name(change.candidate)),
                 std::string(check_kind_name(change.kind)), join_items(change.nodes, ", "), change.summary});
            checks.row_classes.push_back(change.kind == CheckChangeKind::regressed ? "no-go" : "");
        }
        body += element("h2", "Compatibility") + render_table(checks);
    }
    if (!result.benchmarks.empty()) body += performance_section(result);
    if (!result.notes.empty()) body += element("h2", "Notes") + bullet_list(result.notes);
    return html_document("strata rollout: " + decision, body);
}

}  // namespace strata::fleet
