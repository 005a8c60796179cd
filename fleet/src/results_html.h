// Benchmark results as a page (`compare --html`, `bench --html`): each
// benchmark's repetitions as points with their median, BASE beside NEW where
// two runs are compared, and the table of the numbers.
#pragma once

#include <string>
#include <vector>

#include "benchmark_results.h"
#include "comparison.h"

namespace strata::fleet {

// One pair of runs compared: `compare` has one, `bench --side-by-side` one
// per build after the first.
struct ComparedRuns {
    std::string base_name, new_name;  // "BASE"/"NEW", or the builds' names
    const bench::ResultsFile* base = nullptr;
    const bench::ResultsFile* next = nullptr;
    const bench::Comparison* comparison = nullptr;
};

// `metric`: real_time or cpu_time, the time the medians are of.
std::string render_comparison_html(const std::vector<ComparedRuns>& pairs, const std::string& metric);
// One run: every benchmark's repetitions around its median; `notes` (what
// was skipped and why) come first. With no benchmark, the notes alone.
std::string render_results_html(const bench::ResultsFile& results,
                                const std::vector<std::string>& notes = {});

}  // namespace strata::fleet
