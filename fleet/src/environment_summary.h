// The environment of one node as a rollout compares it: a short summary of
// the facts that decide whether two runs can be compared (GPUs, driver,
// libraries, clock policy, ECC, persistence, strata itself), and each of them
// as a labelled field with what its change means.
#pragma once

#include <string>
#include <vector>

#include "model/fact.h"

namespace strata::fleet {

// From the environment record (fact id -> {"value", "source", "layer"}, as
// `strata env` and context.strata.environment hold it) and the clock policy
// the benchmark runner applied (null when no benchmark ran).
Json summarize_environment(const Json& facts, const Json& clock_policy);

enum class FieldRole {
    driver,        // the thing a rollout changes: expected to differ
    invalidating,  // a difference makes a performance comparison meaningless
    informational  // shown when it differs, decides nothing
};

struct ComparableField {
    std::string label;  // "GPU model", "cuBLAS", "ECC", ...
    std::string value;
    FieldRole role = FieldRole::informational;
    std::string why;  // what a difference means, for the reasons of a decision
};

// Every field a summary holds, in a stable order. Fields the summary lacks
// (a plain Google Benchmark file knows no GPU) are absent, not empty.
std::vector<ComparableField> comparable_fields(const Json& summary);

}  // namespace strata::fleet
