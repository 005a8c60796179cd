// `strata bench --jit-installed` (and `record` at standard and above) on
// each GPU: plan which installed fat binaries the driver's JIT compiles
// (core/src/frameworks/jit_proof_plan.h), hand the list to the driver
// plugin's runner (bench/runner/jit_proof.h), keep its results. The filter
// selects fat binaries by their benchmark names.
#pragma once

#include <regex>
#include <vector>

#include "cli/benchmark_session.h"

namespace strata::cli {

// Appends each GPU's results to `runs`; what was handed over, left out or
// skipped goes to `session`'s notes and skipped lists. `described`: the
// plugins as described_plugins() found them (the driver's runner does it).
void run_jit_proofs(const RunOptions& run, const BenchmarkRequest& request, const std::regex& filter,
                    const std::vector<BenchPlugin>& described, const std::vector<int>& devices,
                    const Json& environment, std::vector<Json>& runs, BenchmarkSession& session);

}  // namespace strata::cli
