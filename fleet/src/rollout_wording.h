// The words the rollout renderings share (text, Markdown, JSON, HTML), so a
// decision reads the same in each.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rollout.h"

namespace strata::fleet {

std::string join_items(const std::vector<std::string>& items, const char* separator);
// "2 record(s) from 2 node(s) (n1, n2), 2 with benchmarks"
std::string side_text(const RolloutSide& side);
std::string_view role_name(FieldRole role);              // "driver", "invalidates", "noted"
std::string_view check_kind_name(CheckChangeKind kind);  // "regressed", "only in CAND", ...
// "BASE 8 GB/s, CAND 6 GB/s": the medians in the unit people quote ("" without both).
std::string quoted_medians(const BenchmarkJudgement& judgement);
// A group's judgements in the order judged, less the JIT proof's fat binaries that loaded on
// both sides (thousands for a large framework): those are counted in
// `loaded_proofs` and said in one line. Refusals stay rows of their own.
std::vector<const BenchmarkJudgement*> in_group(const RolloutResult& result, std::string_view group,
                                                size_t& loaded_proofs);
std::string loaded_proofs_text(size_t count);

// The benchmark groups, in the order every rendering shows them.
inline constexpr std::string_view kBenchmarkGroups[] = {"driver-facing", "kernels and libraries"};

}  // namespace strata::fleet
