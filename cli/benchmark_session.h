// Running every plugin's benchmarks through the benchmark runner: what
// `strata bench` and `strata record` share. Each runner is a worker like any
// other (isolated, with a deadline), one per plugin and GPU; their Google
// Benchmark files are merged into one document with strata's environment
// record in context.strata.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "doctor/doctor.h"
#include "model/fact.h"

namespace strata::cli {

struct BenchmarkRequest {
    std::string level = "quick";  // quick, standard or long (bench/src/levels.h)
    std::string filter = ".";     // regex over the runner's full names
    std::string device = "all";   // a GPU number, or "all" (every GPU, as record measures)
    int repetitions = 0;          // 0: the level's
    // Load every installed framework's PTX-only fat binaries through the
    // driver's JIT (--jit-installed; `record` at standard and above).
    bool jit_installed = false;
};

// A plugin that loaded and declares benchmarks, with how many of its runs
// (benchmark x mode) match the filter.
struct BenchPlugin {
    PluginCandidate candidate;
    PluginRecord record;
    size_t matching = 0;
};

struct RunnerResult {
    std::optional<Json> results;     // the Google Benchmark document, when benchmarks ran
    std::string skipped;             // why nothing ran
    std::string error;               // the runner itself failed
    std::vector<std::string> notes;  // benchmarks left out (more GPUs than this node has)
};

struct BenchmarkSession {
    std::optional<Json> merged;        // every run's benchmarks, with context.strata
    std::vector<std::string> skipped;  // a plugin or GPU that measured nothing, and why
    // Benchmarks left out for want of GPUs; what the JIT proof handed the
    // driver, and left out.
    std::vector<std::string> notes;
};

// --level, --filter, --repetitions and --device, as `bench` and `record` take them.
void add_benchmark_options(CLI::App& command, BenchmarkRequest& request);

std::filesystem::path runner_path(const std::string& executable);
bool runner_available(const std::string& executable);

// Throws UsageError for a filter that is not a regex.
std::regex benchmark_filter(const std::string& text);

// Every plugin that loads and declares benchmarks, each described once in a
// worker (`matching` is 0).
std::vector<BenchPlugin> described_plugins(const RunOptions& run);

// Of `described`, those with runs the filter matches, each with their count.
// `gpus_visible`: a benchmark needing more GPUs is not counted (the runner
// leaves it out).
std::vector<BenchPlugin> plugins_matching(std::vector<BenchPlugin> described, const std::regex& filter,
                                          long long gpus_visible = 1);

// A new private directory (mkdtemp: 0700, an unpredictable name) in the
// temporary directory: a name there that others can guess could be a
// symlink planted to make strata, often root, overwrite any file.
std::filesystem::path make_private_directory(const std::string& prefix);

// One runner: one plugin's benchmarks on one GPU, with extra environment.
// `seconds_needed`: the work's own estimate, where the plugin's benchmark
// count does not say (the JIT proof); the deadline adds a minute to it.
RunnerResult run_runner(const RunOptions& run, const BenchmarkRequest& request, const BenchPlugin& plugin,
                        int device, int repetitions, std::vector<std::string> environment,
                        std::optional<double> seconds_needed = std::nullopt);

// context.strata of a results document: the level, the environment record and
// the clock policy the runner applied. The environment is probed unless the
// caller already has it (`record` ran doctor just before).
Json strata_context(const RunOptions& run, const std::string& level, const std::vector<Json>& runs,
                    const Json* environment = nullptr);

// Every matching benchmark of every plugin on every requested GPU. Prints
// its plan to standard error (and progress where that is a terminal).
// Throws UsageError when no benchmark matches.
BenchmarkSession run_benchmarks(const RunOptions& run, const BenchmarkRequest& request,
                                const Json* environment = nullptr);

}  // namespace strata::cli
