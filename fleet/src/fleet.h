// `strata fleet RECORDS…`: many nodes' records turned into the short list of
// nodes that need attention, worst first:
//   - checks that fail, one line per check naming every node it fails on;
//   - expected nodes that sent no record;
//   - benchmarks that failed on a node;
//   - configuration that differs from the fleet's majority (driver, library
//     versions, clock policy, ECC, persistence, MIG);
//   - performance outliers: within each group of like nodes (same GPU model,
//     driver and libraries), a node whose per-node median is worse than the
//     group's median by more than kOutlierScale robust deviations (the scaled
//     MAD, floored, since identical nodes give a MAD of 0) and by more than
//     --min-deviation;
//   - warnings (listed, but they alone do not put a node on the list).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "record.h"

namespace strata::fleet {

// A node is an outlier beyond this many robust standard deviations
// (1.4826 x MAD, which estimates one for normal data).
inline constexpr double kOutlierScale = 3.0;

struct FleetOptions {
    std::vector<std::string> expected;       // nodes that must have reported (empty: no expectation)
    std::string expected_from;               // where the list came from ("--expect", "the Slurm job")
    double min_deviation = 0.0;              // a relative floor: an outlier is at least this much worse
    double spread_floor = 0.01;              // the robust deviation is at least this (relative, ~1%)
    size_t min_group = 3;                    // fewer nodes with a benchmark: too small to judge
    std::string metric = "auto";             // as rollout's --metric
    std::vector<std::string> ignore_checks;  // shell patterns of check ids not judged
};

enum class ProblemKind {
    check_failed,
    missing,
    benchmark_failed,
    configuration,
    outlier,
    not_measured,
    warning
};
std::string_view problem_kind_name(ProblemKind kind);

// One benchmark on which a node is an outlier.
struct NodeDeviation {
    std::string benchmark;
    std::string metric;  // "real_time" (ns) or the rate counter judged
    std::string node;
    double value = 0;         // the node's median of the metric
    double group_median = 0;  // the median over like nodes of each node's median
    double deviation = 0;     // performance against the group's median, signed: negative is worse
    double scaled = 0;        // how far, in robust standard deviations
};

struct FleetProblem {
    ProblemKind kind = ProblemKind::check_failed;
    bool attention = true;  // puts its nodes on the list (a warning does not)
    std::string subject;    // the check id, configuration field, or (outliers) the worst benchmark
    std::vector<std::string> nodes;
    std::string line;                       // the one line a person reads
    std::string reason;                     // short, for a drain reason: "driver.nvml fails"
    std::vector<NodeDeviation> deviations;  // outliers: every benchmark, worst first
    size_t group = 0;                       // outliers: index into FleetResult::groups
};

// One benchmark judged across a group: every node's place against the median
// (what the HTML report's heat map draws), not only the outliers'.
struct GroupBenchmark {
    std::string name;
    std::string metric;
    double group_median = 0;
    struct Cell {
        std::string node;
        double value = 0;      // the node's median of the metric
        double deviation = 0;  // performance against the group's median, signed: negative is worse
        bool outlier = false;
    };
    std::vector<Cell> cells;  // by node name
};

struct FleetGroup {
    std::string description;  // "8 x NVIDIA H200, driver 580.65.06, CUDA 13.0, cuBLAS 13.1"
    std::vector<std::string> nodes;
    size_t benchmarks_judged = 0;
    std::vector<std::string> too_small;  // benchmarks too few nodes measured
    std::vector<GroupBenchmark> judged;  // in the order first seen
};

struct FleetResult {
    std::vector<std::string> nodes;                // that reported, sorted
    std::vector<std::string> missing, unexpected;  // against the expected list
    std::vector<FleetGroup> groups;
    std::vector<FleetProblem> problems;              // worst first
    std::vector<std::string> attention;              // nodes that need it, sorted
    std::map<std::string, std::string> node_reason;  // the worst problem of each such node
    std::vector<std::string> notes;
    std::vector<UnreadableRecord> unreadable;  // records set aside: the analysis is of the rest
    // Why performance went unjudged though nodes measured benchmarks (no
    // group of like nodes reached --min-group); empty when some was judged.
    std::string not_judged;
    FleetOptions options;
    size_t records = 0;

    // Whether anything needs a person: a node on the list, a record that
    // could not be read (its node's state is unknown), or measurements that
    // could not be judged (an analysis of nothing is not a pass).
    bool needs_attention() const { return !attention.empty() || !unreadable.empty() || !not_judged.empty(); }
};

// Throws UsageError for no records or options out of range. `unreadable` are
// the files read_record_set() set aside; their nodes count as not reported.
FleetResult analyze_fleet(const std::vector<NodeRecord>& records, const FleetOptions& options,
                          const std::vector<UnreadableRecord>& unreadable = {});

}  // namespace strata::fleet
