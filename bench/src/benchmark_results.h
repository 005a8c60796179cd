// A benchmark results file in Google Benchmark's JSON format (what
// `--benchmark_out_format=json` writes, and what `strata bench` writes, with
// strata's environment record under context.strata). Read strictly: anything
// malformed is a one-line error naming the file and the entry.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/fact.h"

namespace strata::bench {

struct BenchmarkSeries {
    std::string name;             // run_name: the benchmark with its arguments, without aggregate suffixes
    std::vector<double> samples;  // one time per repetition, in nanoseconds
    std::optional<double> reported_median_ns;  // the "median" aggregate, when only aggregates were kept
    std::string error;                         // error_message, when the benchmark reported one
};

struct ResultsFile {
    std::string path;
    Json context = Json::object();
    std::vector<BenchmarkSeries> series;  // in file order
    const BenchmarkSeries* find(const std::string& name) const;
};

// Throws UsageError ("FILE: ...") for an unreadable, truncated or malformed file.
ResultsFile read_results_file(const std::string& path);
ResultsFile parse_results(const std::string& text, const std::string& path);

}  // namespace strata::bench
