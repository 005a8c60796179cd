// The benchmark levels, shared by `strata bench` (to plan) and the runner
// (to run): repetitions per benchmark and Google Benchmark's minimum time
// per repetition. quick stays under a minute per GPU.
#pragma once

#include <string>

namespace strata::bench {

inline int level_repetitions(const std::string& level) {
    return level == "long" ? 30 : level == "standard" ? 10 : 5;
}

inline double level_min_time_s(const std::string& level) {
    return level == "long" ? 0.5 : level == "standard" ? 0.1 : 0.02;
}

// Passes of the JIT proof over the installed fat binaries: fewer than the
// level's repetitions, since one pass over a large framework compiles for
// minutes.
inline int level_jit_passes(const std::string& level) {
    return level == "long" ? 10 : level == "standard" ? 5 : 3;
}

}  // namespace strata::bench
