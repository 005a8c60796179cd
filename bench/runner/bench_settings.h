// What `strata bench` asks of one runner: passed through the environment,
// because the runner is started exactly like `strata worker`.
#pragma once

#include <string>

namespace strata::bench {

struct BenchSettings {
    std::string out_path;          // STRATA_BENCH_OUT: where the Google Benchmark JSON goes
    std::string level = "quick";   // STRATA_BENCH_LEVEL: quick, standard, long
    std::string filter = ".";      // STRATA_BENCH_FILTER: a regex over benchmark names
    int repetitions = 0;           // STRATA_BENCH_REPETITIONS: 0 = the level's
    int device = 0;                // STRATA_BENCH_DEVICE
    bool cold = true, hot = true;  // STRATA_BENCH_MODES: "cold,hot"
    // STRATA_BENCH_BUDGET_S: seconds the runner may spend timing (0 = no
    // limit). `strata bench` sets it short of the worker's deadline, so a
    // runner that runs long stops starting benchmarks and still writes every
    // result it has, instead of being killed with none.
    double budget_s = 0;
    // STRATA_BENCH_JIT_LIST: a list of installed fat binaries to load
    // through the driver's JIT (core/src/frameworks/jit_proof_plan.h)
    // instead of the plugin's benchmarks.
    std::string jit_list;
};

BenchSettings settings_from_environment();

}  // namespace strata::bench
