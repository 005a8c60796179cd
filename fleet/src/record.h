// A run record: what `strata record` writes for one node and one run, and
// what `strata rollout` (and later `strata fleet`) read.
//
// The document is a Google Benchmark results file — "context" and
// "benchmarks" at the top, so `strata compare` and Google Benchmark's own
// tools read its measurements as they are — with strata's part beside them:
//
//   "context":       Google Benchmark's context; context.strata holds the
//                    level, the clock policy and the environment record
//   "benchmarks":    every repetition of every benchmark ([] when nothing
//                    was measured)
//   "strata_record": {schema_version, created_at, node, level, scheduler,
//                     environment (the summary rollout compares), doctor
//                     (doctor's JSON report without its environment, which
//                     is context.strata.environment), measurement}
//
// Plain Google Benchmark files are read as records that hold only
// benchmarks; their node is context.host_name.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "benchmark_results.h"
#include "model/fact.h"
#include "model/status.h"

namespace strata::fleet {

inline constexpr const char* record_schema_version = "1.0.0";

// A record is refused beyond this size, and a side of a rollout beyond this
// many files.
inline constexpr size_t kMaxRecordBytes = 256u << 20;
inline constexpr size_t kMaxRecordsPerSide = 100'000;

struct CheckState {
    std::string id;
    std::optional<int> device;  // per-GPU checks
    Status status = Status::skip;
    std::string summary;
    bool ignored = false;  // --ignore-check on the node: not judged
};

struct NodeRecord {
    std::string path;
    std::string node;     // strata_record.node, or context.host_name
    bool strata = false;  // a strata record, not a plain Google Benchmark file
    Json environment;     // the summary (environment_summary.h); {} when unknown
    std::vector<CheckState> checks;
    bench::ResultsFile results;  // may hold no series
    bool measured = false;
    std::string not_measured;  // why, when nothing was measured
};

// Throws UsageError ("FILE: ...") for an unreadable, oversized, malformed
// file, or a record of a newer major schema.
NodeRecord parse_node_record(const std::string& text, const std::string& path,
                             bench::TimeMetric metric = bench::TimeMetric::real_time);
NodeRecord read_node_record(const std::string& path, bench::TimeMetric metric = bench::TimeMetric::real_time);

// A record file that could not be read, and why (the one-line error).
struct UnreadableRecord {
    std::string path;
    std::string reason;
};

struct RecordSet {
    std::vector<NodeRecord> records;           // in file order
    std::vector<UnreadableRecord> unreadable;  // in file order
};

// Files, or directories whose *.json files are read (sorted, not recursive).
// Throws UsageError for a missing path, an empty directory, or too many files.
// A file that is truncated, malformed, oversized, not a regular file or of a
// newer major schema is kept in `unreadable`: across a fleet one node that
// died mid-write must not hide the others. When no file at all can be read,
// the first one's error is thrown.
RecordSet read_record_set(const std::vector<std::string>& paths,
                          bench::TimeMetric metric = bench::TimeMetric::real_time);

// The same, all or nothing (rollout: a decision is never made on part of a
// side): throws the first unreadable file's error.
std::vector<NodeRecord> read_records(const std::vector<std::string>& paths,
                                     bench::TimeMetric metric = bench::TimeMetric::real_time);

}  // namespace strata::fleet
