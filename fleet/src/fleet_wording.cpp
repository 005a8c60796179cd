#include "fleet_wording.h"

#include "hostlist.h"

namespace strata::fleet {

std::string problem_marker(const FleetProblem& problem) {
    return problem.attention ? "FAIL" : "note";
}

std::string group_text(const FleetGroup& group, size_t min_group) {
    std::string out = group.description + ": " + compress_hostlist(group.nodes) + " (" +
                      std::to_string(group.nodes.size()) + " node" + (group.nodes.size() == 1 ? "" : "s") +
                      ")";
    if (group.benchmarks_judged > 0)
        out += ", " + std::to_string(group.benchmarks_judged) + " benchmark(s) judged";
    if (!group.too_small.empty())
        out +=
            group.benchmarks_judged == 0 && group.nodes.size() < min_group
                ? ", too small to judge performance (" + std::to_string(min_group) + " nodes needed)"
                : ", " + std::to_string(group.too_small.size()) + " benchmark(s) measured on too few nodes";
    return out;
}

std::string fleet_headline(const FleetResult& result) {
    std::string out = std::to_string(result.nodes.size()) + " node(s) reported";
    if (!result.options.expected.empty())
        out += " of " + std::to_string(result.options.expected.size()) + " expected";
    out += ", " + std::to_string(result.records) + " record(s)";
    if (!result.unreadable.empty()) out += " (" + std::to_string(result.unreadable.size()) + " unreadable)";
    out += "; ";
    out += result.attention.empty() ? "no node needs attention"
                                    : std::to_string(result.attention.size()) +
                                          " need attention: " + compress_hostlist(result.attention);
    return out;
}

std::string unreadable_line(const UnreadableRecord& record) {
    std::string out = "unreadable record, its node counted as not reported: ";
    for (char c : record.reason) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else
            out += c;
    }
    return out;
}

}  // namespace strata::fleet
