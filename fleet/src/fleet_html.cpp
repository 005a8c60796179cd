// `strata fleet --html FILE`: what needs a person first (unreadable records,
// failing checks, missing nodes, failed benchmarks, configuration, outliers),
// then per group of like nodes a heat map of every node against the group's
// median on every benchmark, the worst nodes at the top, and its numbers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "benchmark_metric.h"
#include "change_text.h"
#include "fleet_report.h"
#include "fleet_wording.h"
#include "hostlist.h"
#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"

namespace strata::fleet {

namespace {

std::string percent(double fraction) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%+.1f%%", fraction * 100);
    return buffer;
}

std::string problems_section(const FleetResult& result) {
    HtmlTable table{"What needs attention, worst first", {"", "kind", "nodes", "what"}, {}, {}, {}};
    for (const UnreadableRecord& record : result.unreadable) {
        table.rows.push_back({"FAIL", "unreadable record", "", unreadable_line(record)});
        table.row_classes.push_back("fail");
    }
    if (!result.not_judged.empty()) {
        table.rows.push_back({"FAIL", "not judged", "", result.not_judged});
        table.row_classes.push_back("fail");
    }
    for (const FleetProblem& problem : result.problems) {
        table.rows.push_back({problem_marker(problem), std::string(problem_kind_name(problem.kind)),
                              compress_hostlist(problem.nodes), problem.line});
        table.row_classes.push_back(problem.attention ? "fail" : "warn");
    }
    if (table.rows.empty()) return element("p", "no node needs attention");
    return render_table(table);
}

// Nodes, worst first: by their worst deviation over the group's benchmarks.
std::vector<std::string> worst_first(const FleetGroup& group) {
    std::map<std::string, double> worst;
    for (const std::string& node : group.nodes) worst[node] = 0;
    for (const GroupBenchmark& benchmark : group.judged)
        for (const GroupBenchmark::Cell& cell : benchmark.cells)
            worst[cell.node] = std::min(worst[cell.node], cell.deviation);
    std::vector<std::string> nodes = group.nodes;
    std::stable_sort(nodes.begin(), nodes.end(),
                     [&](const std::string& a, const std::string& b) { return worst[a] < worst[b]; });
    return nodes;
}

std::string group_section(const FleetGroup& group, size_t index, size_t min_group) {
    std::string out =
        element("h3", "Group " + std::to_string(index + 1) + ": " + group_text(group, min_group));
    if (group.judged.empty()) return out;
    std::vector<std::string> nodes = worst_first(group);
    std::map<std::string, size_t> row_of;
    for (size_t r = 0; r < nodes.size(); ++r) row_of[nodes[r]] = r;
    HeatMap map;
    map.title = "Heat map of group " + std::to_string(index + 1) +
                ": each node's performance against the group " + "median per benchmark, worst nodes first";
    map.rows = nodes;
    map.deviation.assign(nodes.size(), std::vector<double>(group.judged.size(), NAN));
    map.outlier.assign(nodes.size(), std::vector<bool>(group.judged.size(), false));
    HtmlTable table{"The numbers behind the heat map: performance against the group median ('!' an outlier)",
                    {"node"},
                    {false},
                    {},
                    {}};
    std::vector<std::string> medians = {"group median"};
    for (size_t c = 0; c < group.judged.size(); ++c) {
        const GroupBenchmark& benchmark = group.judged[c];
        map.columns.push_back(benchmark.name);
        table.headers.push_back(benchmark.name + " (" + bench::metric_word(benchmark.metric) + ")");
        table.numeric.push_back(true);
        medians.push_back(quoted_value(benchmark.metric, benchmark.group_median));
        for (const GroupBenchmark::Cell& cell : benchmark.cells) {
            auto row = row_of.find(cell.node);
            if (row == row_of.end()) continue;
            map.deviation[row->second][c] = cell.deviation;
            map.outlier[row->second][c] = cell.outlier;
        }
    }
    table.rows.push_back(medians);
    table.row_classes.push_back("");
    for (size_t r = 0; r < nodes.size(); ++r) {
        std::vector<std::string> row = {nodes[r]};
        bool outlier = false;
        for (size_t c = 0; c < group.judged.size(); ++c) {
            double value = map.deviation[r][c];
            row.push_back(std::isfinite(value) ? percent(value) + (map.outlier[r][c] ? " !" : "") : "-");
            outlier |= map.outlier[r][c];
        }
        table.rows.push_back(std::move(row));
        table.row_classes.push_back(outlier ? "fail" : "");
    }
    out += "<figure>\n" + render_heat_map(map) + "</figure>\n";
    return out + details("The numbers behind the heat map (" + std::to_string(nodes.size()) + " nodes)",
                         render_table(table), nodes.size() <= 40);
}

}  // namespace

std::string render_fleet_html(const FleetResult& result) {
    bool attention = result.needs_attention();
    std::string body =
        "<h1>Fleet: " + badge(attention ? "attention" : "healthy", attention ? "fail" : "pass") + "</h1>\n";
    body += "<p class=\"decision\">" + html_escape(fleet_headline(result)) + "</p>\n";
    body += element("h2", "Needs attention") + problems_section(result);
    body += element("h2", "Groups of like nodes (same GPUs, driver and libraries)");
    HtmlTable groups{"Groups",
                     {"group", "nodes", "count", "benchmarks judged", "measured on too few nodes"},
                     {false, false, true, true, true},
                     {},
                     {}};
    for (size_t g = 0; g < result.groups.size(); ++g) {
        const FleetGroup& group = result.groups[g];
        groups.rows.push_back({std::to_string(g + 1) + ": " + group.description,
                               compress_hostlist(group.nodes), std::to_string(group.nodes.size()),
                               std::to_string(group.benchmarks_judged),
                               std::to_string(group.too_small.size())});
    }
    body += render_table(groups);
    body += element(
        "p",
        "In each heat map a cell is one node's median on one benchmark against the median of its like "
        "nodes, in performance (a time's change is inverted, so orange is always worse and blue always "
        "better); a framed cell is an outlier ('!' in the table).",
        "note");
    for (size_t g = 0; g < result.groups.size(); ++g)
        body += group_section(result.groups[g], g, result.options.min_group);
    if (!result.notes.empty()) body += element("h2", "Notes") + bullet_list(result.notes);
    return html_document("strata fleet: " + fleet_headline(result), body);
}

}  // namespace strata::fleet
