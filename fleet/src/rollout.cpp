#include "rollout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "benchmark_metric.h"
#include "change_text.h"
#include "intervals.h"
#include "model/report.h"
#include "model/usage_error.h"
#include "statistics.h"

namespace strata::fleet {

namespace {

std::string join(const std::vector<std::string>& items, const char* separator = ", ", size_t limit = 8) {
    std::string out;
    for (size_t i = 0; i < items.size() && i < limit; ++i) out += (i ? separator : "") + items[i];
    if (items.size() > limit)
        out += separator + std::string("and ") + std::to_string(items.size() - limit) + " more";
    return out;
}

// ---- what changed -------------------------------------------------------

struct SideFields {
    std::map<std::string, std::set<std::string>> values;
    std::map<std::string, ComparableField> fields;  // label -> the role and why
    std::vector<std::string> order;
    size_t described = 0;  // records that carry an environment
};

SideFields side_fields(const std::vector<NodeRecord>& records) {
    SideFields out;
    for (const NodeRecord& record : records) {
        std::vector<ComparableField> fields = comparable_fields(record.environment);
        if (!fields.empty()) ++out.described;
        for (ComparableField& field : fields) {
            if (!out.fields.count(field.label)) out.order.push_back(field.label);
            out.values[field.label].insert(field.value);
            out.fields.emplace(field.label, std::move(field));
        }
    }
    return out;
}

std::vector<EnvironmentChange> environment_changes(const SideFields& base, const SideFields& candidate,
                                                   std::vector<std::string>& notes) {
    std::vector<EnvironmentChange> out;
    std::vector<std::string> labels = base.order;
    for (const std::string& label : candidate.order)
        if (!base.fields.count(label)) labels.push_back(label);
    for (const std::string& label : labels) {
        auto in_base = base.values.find(label), in_candidate = candidate.values.find(label);
        std::vector<std::string> left, right;
        if (in_base != base.values.end()) left.assign(in_base->second.begin(), in_base->second.end());
        if (in_candidate != candidate.values.end())
            right.assign(in_candidate->second.begin(), in_candidate->second.end());
        // A side that describes no environment at all says nothing about this field.
        if ((left.empty() && base.described == 0) || (right.empty() && candidate.described == 0)) continue;
        const ComparableField& field =
            base.fields.count(label) ? base.fields.at(label) : candidate.fields.at(label);
        for (const auto& [side, values] : {std::pair{"BASE", &left}, std::pair{"CAND", &right}})
            if (values->size() > 1 && field.role != FieldRole::informational)
                notes.push_back(std::string(side) + " nodes differ among themselves in " + label + ": " +
                                join(*values));
        if (left == right) continue;
        // A value one side does not state (its probe failed, a library it did
        // not find) is not a configuration that differs: it is shown, and
        // decides nothing unless it is the driver itself.
        FieldRole role = field.role;
        if (left.empty() || right.empty()) {
            (left.empty() ? left : right).push_back("(unknown)");
            if (role == FieldRole::invalidating) role = FieldRole::informational;
        }
        out.push_back({label, left, right, role, field.why});
    }
    return out;
}

// ---- compatibility ------------------------------------------------------

// What a check's status means for a rollout: 0 passed or not run, 1 warns, 2 fails.
int outcome(Status status) {
    return is_failure(status) ? 2 : status == Status::warn ? 1 : 0;
}

struct CheckSide {
    Status worst = Status::pass;
    std::string summary;
    std::vector<std::string> nodes;  // with the worst status
};

std::map<std::pair<std::string, int>, CheckSide> side_checks(const std::vector<NodeRecord>& records,
                                                             const std::vector<std::string>& ignore) {
    std::map<std::pair<std::string, int>, CheckSide> out;
    for (const NodeRecord& record : records)
        for (const CheckState& check : record.checks) {
            if (check.ignored || matches_ignore_pattern(check.id, ignore)) continue;
            auto [it, added] = out.try_emplace({check.id, check.device.value_or(-1)});
            CheckSide& side = it->second;
            if (added || outcome(check.status) > outcome(side.worst)) {
                side.worst = check.status;
                side.summary = check.summary;
                side.nodes.clear();
            }
            if (outcome(check.status) == outcome(side.worst) &&
                std::find(side.nodes.begin(), side.nodes.end(), record.node) == side.nodes.end())
                side.nodes.push_back(record.node);
        }
    return out;
}

std::vector<CheckChange> check_changes(const std::vector<NodeRecord>& base,
                                       const std::vector<NodeRecord>& candidate,
                                       const std::vector<std::string>& ignore) {
    auto left = side_checks(base, ignore), right = side_checks(candidate, ignore);
    bool base_has_checks = !left.empty(), candidate_has_checks = !right.empty();
    std::vector<CheckChange> out;
    std::set<std::pair<std::string, int>> keys;
    for (const auto& [key, side] : left) keys.insert(key);
    for (const auto& [key, side] : right) keys.insert(key);
    for (const auto& key : keys) {
        CheckChange change;
        change.id = key.first;
        if (key.second >= 0) change.device = key.second;
        auto l = left.find(key), r = right.find(key);
        if (l == left.end() || r == right.end()) {
            // Only meaningful when the other side ran checks at all.
            if (!base_has_checks || !candidate_has_checks) continue;
            const CheckSide& side = l == left.end() ? r->second : l->second;
            change.kind =
                l == left.end() ? CheckChangeKind::only_in_candidate : CheckChangeKind::only_in_base;
            (l == left.end() ? change.candidate : change.base) = side.worst;
            change.summary = side.summary;
            change.nodes = side.nodes;
            // A check that exists on one side only matters when it does not pass there.
            if (outcome(side.worst) == 0) continue;
            out.push_back(std::move(change));
            continue;
        }
        change.base = l->second.worst;
        change.candidate = r->second.worst;
        int before = outcome(change.base), after = outcome(change.candidate);
        if (after > before)
            change.kind = CheckChangeKind::regressed;
        else if (after < before)
            change.kind = CheckChangeKind::improved;
        else if (after == 2)
            change.kind = CheckChangeKind::fails_on_both;
        else
            continue;
        change.summary = after >= before ? r->second.summary : l->second.summary;
        change.nodes = after >= before ? r->second.nodes : l->second.nodes;
        out.push_back(std::move(change));
    }
    // Regressions first, then what is broken on both, then the rest.
    std::stable_sort(out.begin(), out.end(), [](const CheckChange& a, const CheckChange& b) {
        auto rank = [](const CheckChange& c) {
            return c.kind == CheckChangeKind::regressed           ? -outcome(c.candidate)
                   : c.kind == CheckChangeKind::only_in_candidate ? 1
                   : c.kind == CheckChangeKind::fails_on_both     ? 2
                                                                  : 3;
        };
        return rank(a) < rank(b);
    });
    return out;
}

// ---- performance --------------------------------------------------------

// One side of one benchmark: each node's values of the metric.
struct SideSamples {
    std::map<std::string, std::vector<double>> by_node;
    std::map<std::string, std::string> errors;  // node -> error message
};

std::vector<double> logs(const std::vector<double>& values) {
    std::vector<double> out;
    out.reserve(values.size());
    for (double v : values) out.push_back(std::log(v));
    return out;
}

// The decision for an interval of log(CAND/BASE) of the metric.
struct Judged {
    Decision decision;
    double performance, performance_low, performance_high;  // CAND/BASE performance, above 1 better
};

Judged judge(double estimate, double low, double high, bool bigger, double threshold) {
    Judged out{};
    double sign = bigger ? 1 : -1;
    out.performance = std::exp(sign * estimate);
    out.performance_low = std::exp(std::min(sign * low, sign * high));
    out.performance_high = std::exp(std::max(sign * low, sign * high));
    double floor = 1 - threshold;
    out.decision = out.performance_high < floor   ? Decision::no_go
                   : out.performance_low >= floor ? Decision::go
                                                  : Decision::inconclusive;
    return out;
}

// What would settle an inconclusive interval: the half-width shrinks as
// 1/sqrt(n), and must fall below the distance from the estimate to the threshold.
std::string settle(const Judged& judged, double threshold, size_t units, const char* unit_name) {
    double half = (std::log(judged.performance_high) - std::log(judged.performance_low)) / 2;
    double margin = std::fabs(std::log(judged.performance) - std::log(1 - threshold));
    if (margin < std::max(1e-4, half * 0.05))
        return "the estimate sits on the threshold itself: more data narrows the interval around it but "
               "cannot move it off; decide whether a " +
               signed_percent(-threshold) + " change matters";
    double factor = (half / margin) * (half / margin);
    double needed = std::ceil(static_cast<double>(std::max<size_t>(units, 1)) * factor * 1.1);
    if (needed > 100'000) return "only a very large number of " + std::string(unit_name) + " would settle it";
    return "about " + std::to_string(static_cast<long long>(needed)) + " " + unit_name + " would settle it";
}

void apply_interval(BenchmarkJudgement& out, const bench::ShiftInterval& interval, double threshold,
                    const char* unit_name) {
    Judged judged = judge(interval.estimate, interval.low, interval.high, out.bigger_is_better, threshold);
    // A value of 0 (its logarithm is -inf), or values too far apart for
    // their ratio to be a number: no ratio to judge, and never "within the
    // threshold" (it printed "+inf%" and passed).
    for (double v : {judged.performance, judged.performance_low, judged.performance_high})
        if (!std::isfinite(v) || v <= 0) {
            out.decision = Decision::inconclusive;
            out.reason =
                "no ratio of CAND to BASE can be formed (a value of 0, or values too far apart to "
                "divide): compare the raw values";
            return;
        }
    out.ratio = std::exp(interval.estimate);
    out.low = std::exp(interval.low);
    out.high = std::exp(interval.high);
    out.confidence = interval.confidence;
    out.decision = judged.decision;
    std::string performance = change_of(out);
    switch (judged.decision) {
        case Decision::no_go:
            out.reason =
                performance + ": worse beyond the " + signed_percent(-threshold).substr(1) + " threshold";
            break;
        case Decision::go: out.reason = performance + ": within the threshold"; break;
        case Decision::inconclusive:
            out.reason = performance + ": the interval straddles the threshold; " +
                         settle(judged, threshold, std::min(out.base_units, out.candidate_units), unit_name);
            break;
    }
}

// Two independent samples — one node's repetitions on each side, or the
// per-node medians of two node populations: the Mann-Whitney p-value, the
// Hodges-Lehmann interval of the log ratio, and the decision.
void judge_two_samples(const std::vector<double>& a, const std::vector<double>& b, const char* units,
                       const char* settle_units, const char* alternative, double threshold, double level,
                       BenchmarkJudgement& out) {
    out.base_units = a.size();
    out.candidate_units = b.size();
    if (auto u = bench::mann_whitney_u(a, b)) out.p_value = u->p_value;
    auto interval = bench::two_sample_shift(logs(a), logs(b), level);
    if (!interval) {
        out.decision = Decision::inconclusive;
        out.reason = std::string("too few ") + units + " for a " +
                     std::to_string(static_cast<int>(level * 100)) + "% interval (" +
                     std::to_string(a.size()) + " and " + std::to_string(b.size()) + "; at least " +
                     std::to_string(bench::smallest_two_sample_size(level)) + " per side" + alternative + ")";
        return;
    }
    apply_interval(out, *interval, threshold, settle_units);
}

BenchmarkJudgement judge_benchmark(const std::string& name, const SideSamples& base,
                                   const SideSamples& candidate, const std::string& metric,
                                   const RolloutOptions& options) {
    BenchmarkJudgement out;
    out.name = name;
    out.metric = metric;
    out.bigger_is_better = bigger_is_better(metric);
    const double t = options.threshold, level = options.confidence;
    if (!candidate.errors.empty() && base.errors.empty()) {
        out.decision = Decision::no_go;
        out.reason = "fails on CAND (" + candidate.errors.begin()->first + ": " +
                     candidate.errors.begin()->second + ") and not on BASE";
        return out;
    }
    if (base.by_node.empty() && candidate.by_node.empty() && !base.errors.empty() &&
        !candidate.errors.empty()) {
        out.reason = "fails on both sides (CAND " + candidate.errors.begin()->first + ": " +
                     candidate.errors.begin()->second + ")";
        return out;
    }
    if (base.by_node.empty() || candidate.by_node.empty()) {
        out.decision = base.by_node.empty() && !base.errors.empty() && !candidate.by_node.empty()
                           ? Decision::go
                           : Decision::inconclusive;
        out.reason = out.decision == Decision::go
                         ? "failed on BASE (" + base.errors.begin()->second + "), measured on CAND"
                         : "no value of " + metric + " on " + (base.by_node.empty() ? "BASE" : "CAND");
        return out;
    }
    std::vector<std::string> common;
    for (const auto& [node, values] : base.by_node)
        if (candidate.by_node.count(node)) common.push_back(node);
    std::vector<std::string> left_out;
    for (const auto* side : {&base, &candidate})
        for (const auto& [node, values] : side->by_node)
            if (!std::binary_search(common.begin(), common.end(), node)) left_out.push_back(node);
    for (const std::string& node : common)
        out.node_ratios.emplace_back(
            node, bench::median(candidate.by_node.at(node)) / bench::median(base.by_node.at(node)));
    std::string unpaired_note = common.empty() || left_out.empty()
                                    ? ""
                                    : " (" + join(left_out) + " on one side only: left out of the pairing)";

    auto by_repetitions = [&](const std::vector<double>& a, const std::vector<double>& b,
                              BenchmarkJudgement& j) {
        judge_two_samples(a, b, "repetitions", "repetitions per node", "", t, level, j);
    };

    if (!common.empty()) {
        size_t smallest = bench::smallest_paired_sample(level);
        if (common.size() >= smallest) {
            out.evidence = Evidence::paired_nodes;
            std::vector<double> differences;
            for (const std::string& node : common)
                differences.push_back(std::log(bench::median(candidate.by_node.at(node))) -
                                      std::log(bench::median(base.by_node.at(node))));
            out.base_units = out.candidate_units = common.size();
            if (auto w = bench::wilcoxon_signed_rank(differences)) out.p_value = w->p_value;
            if (auto interval = bench::paired_shift(differences, level))
                apply_interval(out, *interval, t, "paired nodes");
            out.reason += unpaired_note;
            return out;
        }
        if (common.size() == 1) {
            out.evidence = Evidence::repetitions;
            by_repetitions(base.by_node.at(common[0]), candidate.by_node.at(common[0]), out);
            out.reason += unpaired_note;
            return out;
        }
        // Too few paired nodes for a node-level interval: each node's own
        // repetitions, a same-node A/B each; one node's loss is a loss.
        out.evidence = Evidence::node_by_node;
        std::vector<double> estimates;
        std::vector<std::string> worse, unsettled;
        double low = INFINITY, high = -INFINITY;
        for (const std::string& node : common) {
            BenchmarkJudgement one;
            one.bigger_is_better = out.bigger_is_better;
            one.metric = out.metric;
            by_repetitions(base.by_node.at(node), candidate.by_node.at(node), one);
            out.base_units += one.base_units;
            out.candidate_units += one.candidate_units;
            if (!one.ratio) {
                unsettled.push_back(node + ": " + one.reason);
                continue;
            }
            estimates.push_back(*one.ratio);
            low = std::min(low, *one.low);
            high = std::max(high, *one.high);
            out.confidence = one.confidence;
            if (one.decision == Decision::no_go) worse.push_back(node + " " + change_of(one));
            if (one.decision == Decision::inconclusive) unsettled.push_back(node + ": " + one.reason);
        }
        if (!estimates.empty()) {
            out.ratio = bench::median(estimates);
            out.low = low;
            out.high = high;
        }
        std::string basis = "judged node by node on repetitions (" + std::to_string(common.size()) +
                            " paired nodes; a node-level interval needs " + std::to_string(smallest) + ")";
        if (!worse.empty()) {
            out.decision = Decision::no_go;
            out.reason = "worse beyond the " + signed_percent(t).substr(1) + " threshold on " +
                         join(worse, "; ") + "; " + basis;
        } else if (!unsettled.empty()) {
            out.decision = Decision::inconclusive;
            out.reason = join(unsettled, "; ") + "; " + basis;
        } else {
            out.decision = Decision::go;
            out.reason = "within the threshold on every node; " + basis;
        }
        out.reason += unpaired_note;
        return out;
    }
    // No node on both sides.
    if (base.by_node.size() == 1 && candidate.by_node.size() == 1) {
        out.evidence = Evidence::repetitions;
        by_repetitions(base.by_node.begin()->second, candidate.by_node.begin()->second, out);
        out.reason += " (different nodes: node-to-node variation is not told apart from the change)";
        return out;
    }
    out.evidence = Evidence::node_populations;
    std::vector<double> a, b;
    for (const auto& [node, values] : base.by_node) a.push_back(bench::median(values));
    for (const auto& [node, values] : candidate.by_node) b.push_back(bench::median(values));
    judge_two_samples(a, b, "nodes", "nodes per side", ", or the same nodes on both sides", t, level, out);
    return out;
}

struct PerformancePart {
    std::vector<BenchmarkJudgement> judgements;
    std::vector<std::string> only_in_base, only_in_candidate;
    bool cpu_rates_set_aside = false;
};

PerformancePart performance(const std::vector<NodeRecord>& base, const std::vector<NodeRecord>& candidate,
                            const RolloutOptions& options) {
    // name -> the series of each side, in first-seen order.
    std::vector<std::string> order;
    std::map<std::string, std::pair<std::vector<const NodeRecord*>, std::vector<const NodeRecord*>>> where;
    for (const auto& [records, second] : {std::pair{&base, false}, std::pair{&candidate, true}})
        for (const NodeRecord& record : *records)
            for (const bench::BenchmarkSeries& series : record.results.series) {
                auto [it, added] = where.try_emplace(series.name);
                if (added) order.push_back(series.name);
                auto& list = second ? it->second.second : it->second.first;
                if (list.empty() || list.back() != &record) list.push_back(&record);
            }
    PerformancePart out;
    for (const std::string& name : order) {
        const auto& [left, right] = where.at(name);
        if (left.empty() || right.empty()) {
            (left.empty() ? out.only_in_candidate : out.only_in_base).push_back(name);
            continue;
        }
        std::vector<const bench::BenchmarkSeries*> all;
        for (const auto* list : {&left, &right})
            for (const NodeRecord* record : *list) all.push_back(record->results.find(name));
        MetricChoice choice = choose_metric(all, options.metric);
        const std::string& metric = choice.metric;
        out.cpu_rates_set_aside |= choice.cpu_rates_set_aside;
        SideSamples sides[2];
        for (int s = 0; s < 2; ++s)
            for (const NodeRecord* record : s == 0 ? left : right) {
                const bench::BenchmarkSeries* series = record->results.find(name);
                if (!series->error.empty()) {
                    sides[s].errors[record->node] = series->error;
                    continue;
                }
                std::vector<double> values = metric_values(*series, metric);
                // Several records of one node (sessions) pool their repetitions.
                auto& pooled = sides[s].by_node[record->node];
                pooled.insert(pooled.end(), values.begin(), values.end());
                if (pooled.empty()) sides[s].by_node.erase(record->node);
            }
        // A JIT proof's fat binary that CAND loaded is judged on loading, not
        // on its time (benchmark_results.h); a refusal is judged as any failure.
        bool loaded_on_candidate = bench::is_load_proof(name) && sides[1].errors.empty() &&
                                   !sides[1].by_node.empty() &&
                                   (!sides[0].by_node.empty() || !sides[0].errors.empty());
        BenchmarkJudgement judged = loaded_on_candidate
                                        ? BenchmarkJudgement{}
                                        : judge_benchmark(name, sides[0], sides[1], metric, options);
        if (loaded_on_candidate) {
            judged.name = name;
            judged.metric = metric;
            judged.decision = Decision::go;
            judged.reason =
                sides[0].errors.empty()
                    ? "loaded on both sides (a JIT proof: its time counts in driver/jit_installed/total)"
                    : "refused on BASE (" + sides[0].errors.begin()->second + "), loaded on CAND";
        }
        // Each side's median, to quote in the metric's own unit.
        std::optional<double>* values[2] = {&judged.base_value, &judged.candidate_value};
        for (int s = 0; s < 2; ++s) {
            std::vector<double> all_values;
            for (const auto& [node, node_values] : sides[s].by_node)
                all_values.insert(all_values.end(), node_values.begin(), node_values.end());
            if (!all_values.empty()) *values[s] = bench::median(all_values);
        }
        out.judgements.push_back(std::move(judged));
    }
    return out;
}

RolloutSide describe_side(const std::vector<NodeRecord>& records) {
    RolloutSide side;
    std::set<std::string> nodes;
    for (const NodeRecord& record : records) {
        nodes.insert(record.node);
        if (record.measured) ++side.measured;
    }
    side.nodes.assign(nodes.begin(), nodes.end());
    side.records = records.size();
    return side;
}

std::string values_text(const std::vector<std::string>& values) {
    return join(values, " | ", 4);
}

}  // namespace

std::string signed_percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f%%", fraction * 100);
    return text;
}

std::string change_of(const BenchmarkJudgement& j) {
    if (!j.ratio) return "-";
    return bench::change_text(*j.ratio, j.metric, j.bigger_is_better, j.low, j.high);
}

std::string_view decision_name(Decision decision) {
    switch (decision) {
        case Decision::go: return "go";
        case Decision::no_go: return "no-go";
        case Decision::inconclusive: return "inconclusive";
    }
    return "inconclusive";
}

std::string_view evidence_name(Evidence evidence) {
    switch (evidence) {
        case Evidence::paired_nodes: return "paired nodes (Wilcoxon signed-rank)";
        case Evidence::node_populations: return "node populations (Mann-Whitney)";
        case Evidence::repetitions: return "repetitions (Mann-Whitney)";
        case Evidence::node_by_node: return "node by node (repetitions)";
        case Evidence::none: return "none";
    }
    return "none";
}

RolloutResult decide_rollout(const std::vector<NodeRecord>& base, const std::vector<NodeRecord>& candidate,
                             const RolloutOptions& options) {
    if (base.empty()) throw UsageError("BASE holds no record");
    if (candidate.empty()) throw UsageError("CAND holds no record");
    {
        std::vector<const bench::ResultsFile*> files;
        for (const auto* side : {&base, &candidate})
            for (const NodeRecord& record : *side) files.push_back(&record.results);
        require_known_metric(options.metric, files);
    }
    if (!(options.threshold > 0 && options.threshold < 1))
        throw UsageError("the threshold must lie between 0% and 100%");
    RolloutResult result;
    result.options = options;
    result.base = describe_side(base);
    result.candidate = describe_side(candidate);

    SideFields base_fields = side_fields(base), candidate_fields = side_fields(candidate);
    result.changes = environment_changes(base_fields, candidate_fields, result.notes);
    if (base_fields.described == 0 || candidate_fields.described == 0)
        result.notes.push_back(std::string(base_fields.described + candidate_fields.described == 0
                                               ? "BASE and CAND"
                                           : base_fields.described == 0 ? "BASE"
                                                                        : "CAND") +
                               " records carry no environment (plain Google Benchmark files): what changed "
                               "besides the figures is unknown");
    result.checks = check_changes(base, candidate, options.ignore_checks);
    PerformancePart part = performance(base, candidate, options);
    result.benchmarks = std::move(part.judgements);
    result.only_in_base = std::move(part.only_in_base);
    result.only_in_candidate = std::move(part.only_in_candidate);

    std::vector<double> performances;
    for (const BenchmarkJudgement& j : result.benchmarks)
        if (j.ratio) performances.push_back(j.bigger_is_better ? *j.ratio : 1 / *j.ratio);
    result.geometric_mean_performance = bench::geometric_mean(performances);

    std::vector<std::string> no_go, inconclusive, go;
    size_t failing_checks = 0;
    for (const CheckChange& change : result.checks) {
        std::string where =
            change.id + (change.device ? " (GPU " + std::to_string(*change.device) + ")" : "");
        std::string nodes = change.nodes.empty() ? "" : " on " + join(change.nodes);
        bool fails = outcome(change.candidate) == 2 && (change.kind == CheckChangeKind::regressed ||
                                                        change.kind == CheckChangeKind::only_in_candidate);
        failing_checks += fails;
        if (change.kind == CheckChangeKind::regressed && outcome(change.candidate) == 2)
            no_go.push_back("check " + where + " passed on BASE and " +
                            std::string(status_name(change.candidate)) + "s on CAND" + nodes + ": " +
                            change.summary);
        else if (change.kind == CheckChangeKind::only_in_candidate && outcome(change.candidate) == 2)
            no_go.push_back("check " + where + " " + std::string(status_name(change.candidate)) +
                            "s on CAND" + nodes + ": " + change.summary);
        else if (change.kind == CheckChangeKind::regressed)
            result.notes.push_back("check " + where + " now warns on CAND" + nodes + ": " + change.summary);
    }
    for (const EnvironmentChange& change : result.changes)
        if (change.role == FieldRole::invalidating)
            inconclusive.push_back(change.label + " differs (BASE " + values_text(change.base) + "; CAND " +
                                   values_text(change.candidate) + "): " + change.why);
    size_t within = 0, timed = 0, loaded = 0;  // the JIT proof's fat binaries are not timed
    for (const BenchmarkJudgement& j : result.benchmarks) {
        if (j.decision == Decision::no_go) no_go.push_back(j.name + ": " + j.reason);
        if (j.decision == Decision::inconclusive) inconclusive.push_back(j.name + ": " + j.reason);
        bool proof = bench::is_load_proof(j.name);
        timed += !proof;
        if (j.decision == Decision::go) ++(proof ? loaded : within);
    }
    if (result.benchmarks.empty()) {
        auto why = [](const std::vector<NodeRecord>& records) {
            for (const NodeRecord& record : records)
                if (!record.measured && !record.not_measured.empty()) return record.not_measured;
            return std::string("no benchmark");
        };
        if (result.base.measured == 0 || result.candidate.measured == 0)
            inconclusive.push_back(
                "nothing was measured on " +
                std::string(result.base.measured == 0 ? "BASE: " + why(base) : "CAND: " + why(candidate)) +
                "; the decision cannot rest on performance");
        else
            inconclusive.push_back("BASE and CAND have no benchmark in common");
    }
    if (within > 0)
        go.push_back(std::to_string(within) + " of " + std::to_string(timed) + " benchmark(s) within the " +
                     signed_percent(options.threshold).substr(1) + " threshold");
    if (loaded > 0)
        go.push_back(std::to_string(loaded) + " installed fat binaries JIT-compiled and loaded by CAND");
    bool checks_compared = false;
    for (const auto* side : {&base, &candidate})
        for (const NodeRecord& record : *side) checks_compared |= !record.checks.empty();
    if (checks_compared && failing_checks == 0) go.push_back("no check regressed");
    for (const EnvironmentChange& change : result.changes)
        if (change.role == FieldRole::driver)
            go.push_back(change.label + ": " + values_text(change.base) + " -> " +
                         values_text(change.candidate));

    result.decision = !no_go.empty()          ? Decision::no_go
                      : !inconclusive.empty() ? Decision::inconclusive
                                              : Decision::go;
    for (auto* list : {&no_go, &inconclusive, &go})
        result.reasons.insert(result.reasons.end(), list->begin(), list->end());
    if (part.cpu_rates_set_aside) result.notes.push_back(kCpuRatesNote);
    if (!result.only_in_base.empty())
        result.notes.push_back("benchmarks only on BASE: " + join(result.only_in_base));
    if (!result.only_in_candidate.empty())
        result.notes.push_back("benchmarks only on CAND: " + join(result.only_in_candidate));
    return result;
}

}  // namespace strata::fleet
