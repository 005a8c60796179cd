// Turns the runner's Google Benchmark files into one strict JSON document:
// non-finite numbers (which Google Benchmark can write as bare nan/inf) become
// null, the benchmarks of every run are concatenated, and strata's record goes
// into context.strata.
#pragma once

#include <string>
#include <vector>

#include "model/fact.h"

namespace strata::bench {

// Parses Google Benchmark output, turning bare NaN/Infinity tokens into null.
// Throws UsageError on anything else that is not JSON.
Json parse_benchmark_output(const std::string& text, const std::string& path);

// {"context": first run's context + {"strata": strata_context}, "benchmarks": all}.
Json merge_runs(const std::vector<Json>& runs, const Json& strata_context);

}  // namespace strata::bench
