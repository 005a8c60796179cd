// Slurm's hostlist syntax: "gpu[001-128]", "n[1-3,7],login1",
// "rack[1-2]-n[01-04]". What `--expect` and SLURM_JOB_NODELIST hold, and how
// `strata fleet` names groups of nodes ("n[014,203]").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata::fleet {

// A hostlist may not expand to more names than this (a typo such as
// "n[1-100000000]" is refused, not allocated).
inline constexpr size_t kMaxHostlistNames = 1'000'000;

// Every name, in the order written, duplicates removed. A range keeps the
// width of its lower bound ("[001-010]" gives 001 … 010). Throws UsageError
// for unbalanced brackets, an empty or reversed range, a non-numeric bound or
// more than `limit` names.
std::vector<std::string> expand_hostlist(std::string_view list, size_t limit = kMaxHostlistNames);

// The shortest hostlist of these names, sorted: names that differ only in a
// trailing number of the same width share brackets ("n[1-3,5],login"). A
// name holding '[', ']' or ',' (records name their node: untrusted) is shown
// quoted and alone, so it cannot read as several nodes.
std::string compress_hostlist(std::vector<std::string> names);

}  // namespace strata::fleet
