#include "fleet.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "benchmark_metric.h"
#include "change_text.h"
#include "environment_summary.h"
#include "hostlist.h"
#include "model/report.h"
#include "model/usage_error.h"
#include "statistics.h"

namespace strata::fleet {

namespace {

// All of one node's records (a node may have sent several).
struct Node {
    std::string name;
    std::vector<const NodeRecord*> records;
    std::map<std::string, ComparableField> fields;  // by label
    std::set<std::string> libraries;                // the labels that name a library
};

// ---- checks -------------------------------------------------------------

void judge_checks(const std::vector<Node>& nodes, const FleetOptions& options,
                  std::vector<FleetProblem>& out) {
    struct Seen {
        std::set<std::string> nodes;
        std::string summary;  // the first node's
        bool failure = false;
    };
    std::map<std::string, Seen> failures, warnings;
    for (const Node& node : nodes)
        for (const NodeRecord* record : node.records)
            for (const CheckState& check : record->checks) {
                if (check.ignored || matches_ignore_pattern(check.id, options.ignore_checks)) continue;
                bool failure = is_failure(check.status);
                if (!failure && check.status != Status::warn) continue;
                Seen& seen = (failure ? failures : warnings)[check.id];
                if (seen.nodes.empty()) seen.summary = check.summary;
                seen.nodes.insert(node.name);
            }
    auto add = [&](std::map<std::string, Seen>& map, bool failure) {
        for (auto& [id, seen] : map) {
            FleetProblem problem;
            problem.kind = failure ? ProblemKind::check_failed : ProblemKind::warning;
            problem.attention = failure;
            problem.subject = id;
            problem.nodes.assign(seen.nodes.begin(), seen.nodes.end());
            problem.reason = id + (failure ? " fails" : " warns");
            problem.line = problem.reason + " on " + compress_hostlist(problem.nodes) + ": " + seen.summary;
            out.push_back(std::move(problem));
        }
    };
    add(failures, true);
    add(warnings, false);
}

// ---- configuration ------------------------------------------------------

// Fields that must agree across a fleet. The GPU model, its compute
// capability and memory are what groups nodes, not a misconfiguration.
bool fleet_wide_field(const ComparableField& field) {
    static const std::set<std::string> hardware = {"GPU model", "compute capability", "GPU memory (MiB)",
                                                   "libcuda in use", "strata revision"};
    if (hardware.count(field.label)) return false;
    return field.role != FieldRole::informational;
}

// Only fields every described node could name: a field one node could not
// read decides nothing.
void judge_configuration(const std::vector<Node>& nodes, std::vector<FleetProblem>& out,
                         std::vector<std::string>& notes) {
    std::map<std::string, std::map<std::string, std::vector<std::string>>> values;  // label -> value -> nodes
    std::map<std::string, size_t> named_by;
    size_t described = 0;
    for (const Node& node : nodes) {
        if (node.fields.empty()) continue;
        ++described;
        for (const auto& [label, field] : node.fields)
            if (fleet_wide_field(field)) {
                values[label][field.value].push_back(node.name);
                ++named_by[label];
            }
    }
    for (const auto& [label, by_value] : values) {
        if (by_value.size() < 2 || named_by[label] < described) continue;
        // The majority: the value most nodes have (the first in order on a tie).
        auto majority = by_value.begin();
        for (auto it = by_value.begin(); it != by_value.end(); ++it)
            if (it->second.size() > majority->second.size()) majority = it;
        if (majority->second.size() * 2 <= described)
            notes.push_back(label + " has no majority value across the fleet: the nodes that differ from '" +
                            majority->first + "' are listed");
        for (const auto& [value, holders] : by_value) {
            if (value == majority->first) continue;
            FleetProblem problem;
            problem.kind = ProblemKind::configuration;
            problem.subject = label;
            problem.nodes = holders;
            problem.reason = label + " " + value + " (fleet: " + majority->first + ")";
            problem.line = label + " is " + value + " on " + compress_hostlist(holders) + ", " +
                           majority->first + " on " + std::to_string(majority->second.size()) + " node(s)";
            out.push_back(std::move(problem));
        }
    }
}

// ---- performance --------------------------------------------------------

// The fields that make nodes alike for performance: same GPUs, driver and libraries.
bool grouping_field(const Node& node, const ComparableField& field) {
    static const std::set<std::string> hardware = {"GPU model", "compute capability", "GPU memory (MiB)",
                                                   "CUDA runtime"};
    if (field.label == "libcuda in use") return false;
    return hardware.count(field.label) || field.role == FieldRole::driver ||
           node.libraries.count(field.label);
}

std::string group_description(const Node& node) {
    std::string out;
    auto take = [&](const char* label, const char* prefix) {
        auto it = node.fields.find(label);
        if (it != node.fields.end())
            out += (out.empty() ? "" : ", ") + std::string(prefix) + it->second.value;
    };
    take("GPU model", "");
    take("driver (kernel module)", "driver ");
    if (!node.fields.count("driver (kernel module)")) take("driver (NVML)", "driver ");
    take("CUDA runtime", "CUDA runtime ");
    return out.empty() ? "nodes without an environment record" : out;
}

double robust_median(std::vector<double> values) {
    return bench::median(std::move(values));
}

// One line per node, not per benchmark: a node that is slow (or failing)
// everywhere is one problem with the evidence of every benchmark.
void judge_performance(const std::vector<Node>& nodes, const std::vector<size_t>& group_of,
                       const FleetOptions& options, FleetResult& result) {
    bool cpu_rates_set_aside = false;
    for (size_t g = 0; g < result.groups.size(); ++g) {
        FleetGroup& group = result.groups[g];
        // benchmark -> node -> its series (over its records)
        std::map<std::string, std::map<std::string, std::vector<const bench::BenchmarkSeries*>>> series;
        std::vector<std::string> order;
        for (size_t n = 0; n < nodes.size(); ++n) {
            if (group_of[n] != g) continue;
            for (const NodeRecord* record : nodes[n].records)
                for (const bench::BenchmarkSeries& s : record->results.series) {
                    if (!series.count(s.name)) order.push_back(s.name);
                    series[s.name][nodes[n].name].push_back(&s);
                }
        }
        std::map<std::string, std::vector<std::pair<std::string, std::string>>>
            failed;                                                // node -> (bench, error)
        std::map<std::string, std::vector<NodeDeviation>> slower;  // node -> deviations
        std::map<std::string, size_t> judged_on;                   // node -> benchmarks it was judged on
        size_t peers = 0;
        for (const std::string& name : order) {
            std::vector<const bench::BenchmarkSeries*> all;
            std::set<std::string> errors;
            for (const auto& [node, list] : series[name])
                for (const bench::BenchmarkSeries* s : list) {
                    all.push_back(s);
                    if (!s->error.empty() && errors.insert(node).second)
                        failed[node].emplace_back(name, s->error);
                }
            // A JIT proof's fat binary is judged on loading (a failure
            // above), never on its time (bench/src/benchmark_results.h).
            if (bench::is_load_proof(name)) continue;
            MetricChoice choice = choose_metric(all, options.metric);
            const std::string& metric = choice.metric;
            cpu_rates_set_aside |= choice.cpu_rates_set_aside;
            bool bigger = metric != "real_time" && metric != "cpu_time" && bigger_is_better(metric);
            std::vector<std::pair<std::string, double>> medians;  // node -> log of its median
            for (const auto& [node, list] : series[name]) {
                if (errors.count(node)) continue;
                std::vector<double> values;
                for (const bench::BenchmarkSeries* s : list) {
                    std::vector<double> more = metric_values(*s, metric);
                    values.insert(values.end(), more.begin(), more.end());
                }
                if (!values.empty()) medians.emplace_back(node, std::log(robust_median(values)));
            }
            if (medians.size() < options.min_group) {
                group.too_small.push_back(name);
                continue;
            }
            ++group.benchmarks_judged;
            peers = std::max(peers, medians.size());
            std::vector<double> logs;
            for (const auto& [node, value] : medians) logs.push_back(value);
            double center = robust_median(logs);
            std::vector<double> distances;
            for (double value : logs) distances.push_back(std::fabs(value - center));
            double spread = std::max(1.4826 * robust_median(distances), std::log1p(options.spread_floor));
            GroupBenchmark& matrix = group.judged.emplace_back();
            matrix.name = name;
            matrix.metric = metric;
            matrix.group_median = std::exp(center);
            for (const auto& [node, value] : medians) {
                ++judged_on[node];
                double worse_by = bigger ? center - value : value - center;  // in logs, > 0: worse
                double relative = std::expm1(bigger ? value - center : center - value);  // < 0: worse
                bool outlier = worse_by > kOutlierScale * spread && -relative >= options.min_deviation;
                matrix.cells.push_back({node, std::exp(value), relative, outlier});
                if (!outlier) continue;
                slower[node].push_back(
                    {name, metric, node, std::exp(value), std::exp(center), relative, worse_by / spread});
            }
        }
        for (const auto& [node, list] : failed) {
            FleetProblem problem;
            problem.kind = ProblemKind::benchmark_failed;
            problem.subject = list.front().first;
            problem.nodes = {node};
            problem.reason = std::to_string(list.size()) + " benchmark(s) failed";
            problem.line = node + ": " + std::to_string(list.size()) + " of " + std::to_string(order.size()) +
                           " benchmarks failed; " + list.front().first + ": " + list.front().second;
            result.problems.push_back(std::move(problem));
        }
        for (auto& [node, deviations] : slower) {
            std::sort(
                deviations.begin(), deviations.end(),
                [](const NodeDeviation& a, const NodeDeviation& b) { return a.deviation < b.deviation; });
            const NodeDeviation& worst = deviations.front();
            FleetProblem problem;
            problem.kind = ProblemKind::outlier;
            problem.subject = worst.benchmark;
            problem.nodes = {node};
            problem.group = g;
            problem.deviations = deviations;
            // The worst benchmark's change in its own metric, as every
            // command says a change (bench/src/change_text.h).
            double ratio = worst.value / worst.group_median;
            bool bigger = bigger_is_better(worst.metric);
            problem.reason = "slower than like nodes on " + std::to_string(deviations.size()) +
                             " benchmark(s), worst " + worst.benchmark + " " + bench::signed_change(ratio) +
                             " " + bench::metric_word(worst.metric);
            std::string kind(benchmark_group(worst.benchmark));
            problem.line = node + " is slower than its " + std::to_string(peers - 1) + " like nodes on " +
                           std::to_string(deviations.size()) + " of " + std::to_string(judged_on[node]) +
                           " benchmarks" + (deviations.size() > 1 ? "; worst " : ": ") + worst.benchmark +
                           " (" + kind + ") " + bench::change_text(ratio, worst.metric, bigger) +
                           " against their median " + quoted_value(worst.metric, worst.group_median);
            result.problems.push_back(std::move(problem));
        }
    }
    if (cpu_rates_set_aside) result.notes.push_back(kCpuRatesNote);
}

int rank(const FleetProblem& problem) {
    switch (problem.kind) {
        case ProblemKind::check_failed: return 0;
        case ProblemKind::missing: return 1;
        case ProblemKind::benchmark_failed: return 2;
        case ProblemKind::configuration: return 3;
        case ProblemKind::outlier: return 4;
        case ProblemKind::not_measured: return 5;
        case ProblemKind::warning: return 6;
    }
    return 7;
}

}  // namespace

std::string_view problem_kind_name(ProblemKind kind) {
    switch (kind) {
        case ProblemKind::check_failed: return "check_failed";
        case ProblemKind::missing: return "missing";
        case ProblemKind::benchmark_failed: return "benchmark_failed";
        case ProblemKind::configuration: return "configuration";
        case ProblemKind::outlier: return "outlier";
        case ProblemKind::not_measured: return "not_measured";
        case ProblemKind::warning: return "warning";
    }
    return "";
}

FleetResult analyze_fleet(const std::vector<NodeRecord>& records, const FleetOptions& options,
                          const std::vector<UnreadableRecord>& unreadable) {
    if (records.empty()) throw UsageError("no records");
    if (!(options.min_deviation >= 0 && options.min_deviation < 1))
        throw UsageError("--min-deviation must lie between 0% and 100%");
    if (!(options.spread_floor >= 0 && options.spread_floor < 1))
        throw UsageError("the spread floor must lie between 0% and 100%");
    if (options.min_group < 2) throw UsageError("a group needs at least 2 nodes to be judged");
    {
        std::vector<const bench::ResultsFile*> files;
        for (const NodeRecord& record : records) files.push_back(&record.results);
        require_known_metric(options.metric, files);
    }
    FleetResult result;
    result.options = options;
    result.records = records.size();
    result.unreadable = unreadable;

    std::map<std::string, size_t> index;
    std::vector<Node> nodes;
    for (const NodeRecord& record : records) {
        auto [it, added] = index.emplace(record.node, nodes.size());
        if (added) nodes.push_back({record.node, {}, {}, {}});
        nodes[it->second].records.push_back(&record);
    }
    std::sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return a.name < b.name; });
    for (Node& node : nodes) {
        result.nodes.push_back(node.name);
        if (node.records.size() > 1)
            result.notes.push_back(node.name + " sent " + std::to_string(node.records.size()) +
                                   " records: their checks and repetitions are pooled");
        // The last record that describes the node's environment.
        for (const NodeRecord* record : node.records)
            if (!record->environment.empty()) {
                node.fields.clear();
                node.libraries.clear();
                for (ComparableField& field : comparable_fields(record->environment))
                    node.fields[field.label] = std::move(field);
                const Json& libraries = record->environment.value("libraries", Json::object());
                if (libraries.is_object())
                    for (const auto& [name, version] : libraries.items()) node.libraries.insert(name);
            }
    }

    judge_checks(nodes, options, result.problems);

    if (!options.expected.empty()) {
        std::set<std::string> expected(options.expected.begin(), options.expected.end());
        for (const std::string& name : options.expected)
            if (!index.count(name)) result.missing.push_back(name);
        for (const Node& node : nodes)
            if (!expected.count(node.name)) result.unexpected.push_back(node.name);
        if (!result.missing.empty()) {
            FleetProblem problem;
            problem.kind = ProblemKind::missing;
            problem.subject = "record";
            problem.nodes = result.missing;
            std::sort(problem.nodes.begin(), problem.nodes.end());
            problem.reason = "no record from this node";
            problem.line = "no record from " + compress_hostlist(problem.nodes) + " (" +
                           std::to_string(result.missing.size()) + " of " + std::to_string(expected.size()) +
                           " nodes expected by " + options.expected_from + ")" +
                           (unreadable.empty() ? ""
                                               : "; " + std::to_string(unreadable.size()) +
                                                     " unreadable record(s) may be theirs");
            result.problems.push_back(std::move(problem));
        }
        if (!result.unexpected.empty())
            result.notes.push_back("records from nodes not expected by " + options.expected_from + ": " +
                                   compress_hostlist(result.unexpected));
    }

    judge_configuration(nodes, result.problems, result.notes);

    // Groups of like nodes.
    std::vector<size_t> group_of(nodes.size());
    std::map<std::string, size_t> group_index;
    for (size_t n = 0; n < nodes.size(); ++n) {
        std::string key;
        for (const auto& [label, field] : nodes[n].fields)
            if (grouping_field(nodes[n], field)) key += label + "=" + field.value + "\n";
        auto [it, added] = group_index.emplace(key, result.groups.size());
        if (added) result.groups.push_back({group_description(nodes[n]), {}, 0, {}, {}});
        result.groups[it->second].nodes.push_back(nodes[n].name);
        group_of[n] = it->second;
    }
    judge_performance(nodes, group_of, options, result);
    {
        size_t judged = 0, largest = 0;
        for (const FleetGroup& group : result.groups) {
            judged += group.benchmarks_judged;
            if (!group.too_small.empty()) largest = std::max(largest, group.nodes.size());
        }
        if (judged == 0 && largest > 0)
            result.not_judged =
                "performance not judged: no group of like nodes has " + std::to_string(options.min_group) +
                " nodes that measured a benchmark (--min-group " + std::to_string(options.min_group) +
                "; the largest has " + std::to_string(largest) + ")";
    }

    // Nodes that measured nothing while like nodes did.
    {
        std::map<size_t, std::vector<std::string>> unmeasured;
        std::map<size_t, size_t> measured;
        std::map<size_t, std::string> why;
        for (size_t n = 0; n < nodes.size(); ++n) {
            bool any = std::any_of(nodes[n].records.begin(), nodes[n].records.end(),
                                   [](const NodeRecord* r) { return r->measured; });
            if (any) {
                ++measured[group_of[n]];
            } else {
                unmeasured[group_of[n]].push_back(nodes[n].name);
                if (!why.count(group_of[n])) why[group_of[n]] = nodes[n].records.front()->not_measured;
            }
        }
        // No node measured anything (records of checks only, a fleet without
        // GPUs): one line for all of them, not one per group.
        if (measured.empty() && unmeasured.size() > 1) {
            std::vector<std::string> all;
            for (const auto& [g, names] : unmeasured) all.insert(all.end(), names.begin(), names.end());
            std::sort(all.begin(), all.end());
            std::string first_why = why.begin()->second;
            unmeasured = {{0, all}};
            why = {{0, first_why}};
        }
        for (const auto& [g, names] : unmeasured) {
            FleetProblem problem;
            problem.kind = ProblemKind::not_measured;
            problem.subject = "benchmarks";
            problem.nodes = names;
            problem.attention = measured.count(g) && measured[g] > 0;
            problem.reason = "measured nothing";
            problem.line = "no benchmark measured on " + compress_hostlist(names) +
                           (why[g].empty() ? "" : ": " + why[g]) +
                           (problem.attention  ? ""
                            : measured.empty() ? ""
                                               : " (nor on any node like them)");
            result.problems.push_back(std::move(problem));
        }
    }

    std::stable_sort(result.problems.begin(), result.problems.end(),
                     [](const FleetProblem& a, const FleetProblem& b) {
                         if (rank(a) != rank(b)) return rank(a) < rank(b);
                         if (a.kind == ProblemKind::outlier)  // the slowest node first
                             return a.deviations.front().deviation < b.deviations.front().deviation;
                         return a.nodes.size() > b.nodes.size();
                     });
    std::set<std::string> attention;
    for (const FleetProblem& problem : result.problems) {
        if (!problem.attention) continue;
        for (const std::string& node : problem.nodes) {
            attention.insert(node);
            result.node_reason.emplace(node, problem.reason);  // the first is the worst
        }
    }
    result.attention.assign(attention.begin(), attention.end());
    return result;
}

}  // namespace strata::fleet
