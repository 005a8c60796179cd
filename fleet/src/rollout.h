// `strata rollout BASE CAND`: should the candidate (a new driver) replace the
// base? Three parts, then a decision:
//   - what changed between the sides: the driver (expected) and everything
//     else; a difference that invalidates the comparison makes it inconclusive;
//   - compatibility: checks that pass on one side and fail or warn on the other;
//   - performance: per benchmark, the ratio CAND/BASE with a confidence
//     interval, judged by equivalence against a practical threshold.
//
// The node is the unit of evidence. With the same nodes on both sides they
// are paired (Wilcoxon signed-rank on per-node medians); with different
// nodes, the two populations of per-node medians are compared (Mann-Whitney);
// with one node per side, or paired nodes too few for a node-level interval,
// each node's repetitions are.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "benchmark_metric.h"
#include "environment_summary.h"
#include "model/status.h"
#include "record.h"

namespace strata::fleet {

enum class Decision { go, no_go, inconclusive };
std::string_view decision_name(Decision decision);  // "go", "no-go", "inconclusive"

struct RolloutOptions {
    double threshold = 0.03;  // a performance loss that matters (3%)
    double confidence = 0.95;
    // The figure judged per benchmark: "auto" (a bigger-is-better rate
    // counter when the benchmark has one, else the time), "real_time",
    // "cpu_time" or a counter name.
    std::string metric = "auto";
    // Shell patterns of check ids not judged (--ignore-check), as fleet and
    // doctor set them aside; checks a record marks ignored are set aside too.
    std::vector<std::string> ignore_checks;
};

// One field of the environment whose values differ between the sides.
struct EnvironmentChange {
    std::string label;
    std::vector<std::string> base, candidate;  // the distinct values on each side
    FieldRole role = FieldRole::informational;
    std::string why;
};

enum class CheckChangeKind { regressed, improved, only_in_base, only_in_candidate, fails_on_both };

struct CheckChange {
    std::string id;
    std::optional<int> device;
    Status base = Status::skip, candidate = Status::skip;  // the worst over each side's nodes
    CheckChangeKind kind = CheckChangeKind::regressed;
    std::string summary;             // the candidate's summary (the base's when only there)
    std::vector<std::string> nodes;  // where the candidate's status is the worst
};

enum class Evidence { paired_nodes, node_populations, repetitions, node_by_node, none };
std::string_view evidence_name(Evidence evidence);

struct BenchmarkJudgement {
    std::string name;
    std::string metric;  // "real_time" or the counter
    bool bigger_is_better = false;
    std::optional<double> ratio, low, high;             // CAND / BASE of the metric, and its interval
    std::optional<double> p_value;                      // the test of no difference
    std::optional<double> base_value, candidate_value;  // each side's median of the metric
    double confidence = 0;                              // the interval's coverage
    Evidence evidence = Evidence::none;
    size_t base_units = 0, candidate_units = 0;  // nodes, or repetitions
    Decision decision = Decision::inconclusive;
    std::string reason;  // why, and for inconclusive what would settle it
    // Each node measured on both sides: CAND/BASE of its medians, by node name.
    std::vector<std::pair<std::string, double>> node_ratios;
};

struct RolloutSide {
    std::vector<std::string> nodes;
    size_t records = 0;
    size_t measured = 0;  // records with benchmarks
};

struct RolloutResult {
    Decision decision = Decision::inconclusive;
    std::vector<std::string> reasons;  // the decisive ones first
    std::vector<EnvironmentChange> changes;
    std::vector<CheckChange> checks;
    std::vector<BenchmarkJudgement> benchmarks;
    std::vector<std::string> only_in_base, only_in_candidate;  // benchmarks
    std::optional<double> geometric_mean_performance;          // CAND/BASE performance (above 1: better)
    std::vector<std::string> notes;
    RolloutSide base, candidate;
    RolloutOptions options;
};

// Throws UsageError when a side holds no record.
RolloutResult decide_rollout(const std::vector<NodeRecord>& base, const std::vector<NodeRecord>& candidate,
                             const RolloutOptions& options);

// "+3.0%", "-8.1%": a fraction as a signed percentage.
std::string signed_percent(double fraction);

// The CAND/BASE change in the metric's own terms, with its interval and the
// direction (bench/src/change_text.h): "+8.7% time [+8.3%, +9.1%] (slower)",
// "-8.0% GB/s [-8.4%, -7.6%] (slower)"; "-" without a ratio.
std::string change_of(const BenchmarkJudgement& judgement);

}  // namespace strata::fleet
