// strata bench [--level quick|standard|long] [--filter RE] [--repetitions N]
//              [--device N|all] [--out FILE] [--markdown]
// strata bench --side-by-side NAME=LIBDIR NAME=LIBDIR ...
//
// Every plugin's benchmarks run in the benchmark runner (bench/runner), a
// worker like any other: isolated, with a deadline, one per plugin and GPU.
// Its Google Benchmark files are merged into one strict JSON document with
// strata's environment record in context.strata.
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "benchmark_results.h"
#include "cli/commands.h"
#include "cli/comparison_output.h"
#include "cli/run_options.h"
#include "comparison.h"
#include "diagnosis/fact_access.h"
#include "doctor/plugin_tasks.h"
#include "levels.h"
#include "model/untrusted_input.h"
#include "model/usage_error.h"
#include "probes/nvml_gpus.h"
#include "report/writers.h"
#include "results_merge.h"

namespace strata::cli {

namespace {

namespace fs = std::filesystem;

struct BenchOptions {
    PluginOptions plugins;
    std::string level = "quick", filter = ".", device = "0", out = "strata-bench.json";
    int repetitions = 0;
    bool markdown = false;
    std::vector<std::string> side_by_side;
};

using bench::level_min_time_s;
using bench::level_repetitions;

fs::path runner_path(const std::string& executable) {
    return (fs::path(executable).parent_path() / ".." / "lib" / "strata" / "strata-bench-runner")
        .lexically_normal();
}

// A plugin that loaded and declares benchmarks, with the full names the runner gives them.
struct BenchPlugin {
    PluginCandidate candidate;
    PluginRecord record;
    size_t matching = 0;  // runs (benchmark x mode) whose full name matches --filter
};

std::vector<BenchPlugin> plugins_with_benchmarks(const RunOptions& run, const std::regex& filter) {
    std::vector<BenchPlugin> out;
    for (const PluginCandidate& candidate : discover_plugins(run.plugins, run.executable)) {
        if (candidate.refusal) continue;
        Report scratch;
        PluginRecord record = run_plugin_task(run, candidate, "describe", scratch);
        if (record.state != PluginState::loaded || record.benchmarks.empty()) continue;
        size_t matching = 0;
        // The names the runner gives, so --filter means the same here and there.
        for (const auto& b : record.benchmarks)
            for (const char* mode : {"/mode:cold/device:", "/mode:hot/device:"})
                if (std::regex_search(record.name + "/" + b.name + "/" + b.parameters + mode, filter))
                    ++matching;
        if (matching > 0) out.push_back({candidate, record, matching});
    }
    return out;
}

std::vector<int> devices_for(const std::string& device) {
    if (device != "all") {
        char* end = nullptr;
        long value = std::strtol(device.c_str(), &end, 10);
        if (device.empty() || *end != '\0' || value < 0)
            throw UsageError("--device takes a GPU number or 'all', not '" + device + "'");
        return {static_cast<int>(value)};
    }
    size_t count = discover_gpus().gpus.size();
    std::vector<int> out;
    for (size_t i = 0; i < std::max<size_t>(count, 1); ++i) out.push_back(static_cast<int>(i));
    return out;
}

struct RunnerResult {
    std::optional<Json> results;  // the Google Benchmark document, when benchmarks ran
    std::string skipped;          // why nothing ran
    std::string error;            // the runner itself failed
};

// One runner: one plugin's benchmarks on one GPU, with extra environment.
RunnerResult run_runner(const RunOptions& run, const BenchOptions& options, const BenchPlugin& plugin,
                        int device, int repetitions, std::vector<std::string> environment) {
    // A private directory (mkdtemp: 0700, an unpredictable name): a name in
    // /tmp that others can guess could be a symlink planted to make the
    // runner, often root, overwrite any file.
    std::string pattern = (fs::temp_directory_path() / "strata-bench-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        throw std::runtime_error("cannot create a private directory in " +
                                 fs::temp_directory_path().string() + ": " + std::strerror(errno));
    const fs::path directory = pattern;
    const fs::path out = directory / (plugin.record.name + "-gpu" + std::to_string(device) + ".json");
    WorkerRequest request;
    request.strata_executable = runner_path(run.executable).string();
    request.plugin_path = plugin.candidate.path;
    request.task = "bench";
    request.environment = std::move(environment);
    request.environment.push_back("STRATA_BENCH_OUT=" + out.string());
    request.environment.push_back("STRATA_BENCH_LEVEL=" + options.level);
    request.environment.push_back("STRATA_BENCH_FILTER=" + options.filter);
    request.environment.push_back("STRATA_BENCH_REPETITIONS=" + std::to_string(repetitions));
    request.environment.push_back("STRATA_BENCH_DEVICE=" + std::to_string(device));
    // Generous: every benchmark, both modes, every repetition, plus set-up.
    double seconds = 60 + 4.0 * plugin.matching * repetitions * level_min_time_s(options.level);
    request.deadline_override =
        run.timeout.value_or(std::chrono::milliseconds(static_cast<long long>(seconds * 1000)));
    TaskOutcome outcome = run_worker_task(request);
    RunnerResult result;
    for (const Check& check : outcome.checks)
        if (check.id == "bench." + plugin.record.name && check.status == Status::skip)
            result.skipped = check.summary;
    if (outcome.end != TaskEnd::completed) {
        result.error = plugin.record.name + " on GPU " + std::to_string(device) + ": " + outcome.message;
    } else if (result.skipped.empty()) {
        std::error_code missing;
        if (!fs::exists(out, missing))
            result.error = plugin.record.name + ": the runner wrote no results";
        else
            result.results = bench::parse_benchmark_output(
                read_input_file(out.string(), bench::kMaxResultsFileBytes), out.string());
    }
    std::error_code ec;
    fs::remove_all(directory, ec);
    return result;
}

Json strata_context(const RunOptions& run, const BenchOptions& options, const std::vector<Json>& runs) {
    Report environment = run_environment(run, ProbeContext::live());
    Json context = {{"level", options.level}, {"environment", environment_to_json(environment)}};
    for (const Json& r : runs)
        if (r.contains("context") && r["context"].contains("strata_clock_policy")) {
            context["clock_policy"] = r["context"]["strata_clock_policy"];
            break;
        }
    return context;
}

void print_results(const Json& merged, bool markdown) {
    // Times through the same reader `strata compare` uses; counters from the entries.
    bench::ResultsFile results = bench::parse_results(to_json_text(merged), "results");
    std::map<std::string, const Json*> last_entry;  // run_name -> its last repetition, for the counters
    for (const Json& entry : merged["benchmarks"])
        if (entry.value("run_type", std::string("iteration")) == "iteration")
            last_entry[entry.value("run_name", entry.value("name", std::string()))] = &entry;
    auto counter = [&](const std::string& name, const char* key) {
        auto it = last_entry.find(name);
        if (it == last_entry.end() || !it->second->contains(key) || !(*it->second)[key].is_number())
            return -1.0;
        return (*it->second)[key].get<double>();
    };
    if (markdown)
        std::cout
            << "| benchmark | median | GB/s | TFLOP/s | % of peak bandwidth |\n|---|---:|---:|---:|---:|\n";
    for (const bench::BenchmarkSeries& series : results.series) {
        char gbps[32] = "-", tflops[32] = "-", pct[32] = "-";
        if (double bytes = counter(series.name, "bytes_per_second"); bytes > 0)
            std::snprintf(gbps, sizeof gbps, "%.1f", bytes / 1e9);
        if (double flops = counter(series.name, "flops_per_second"); flops > 0)
            std::snprintf(tflops, sizeof tflops, "%.2f", flops / 1e12);
        if (double peak = counter(series.name, "percent_of_peak_bandwidth"); peak > 0)
            std::snprintf(pct, sizeof pct, "%.1f", peak);
        std::string median = !series.error.empty()    ? "error: " + series.error
                             : series.samples.empty() ? "-"
                                                      : time_text(bench::median(series.samples));
        if (markdown)
            std::cout << "| " << series.name << " | " << median << " | " << gbps << " | " << tflops << " | "
                      << pct << " |\n";
        else
            std::cout << series.name << "  " << median << "  " << gbps << " GB/s  " << tflops << " TFLOP/s  "
                      << pct << "% of peak\n";
    }
}

// --side-by-side: which files each build's workers really loaded.
struct Build {
    std::string name;
    fs::path directory;
    std::vector<std::string> environment;
    std::set<std::string> loaded;   // every library file the probes saw
    std::vector<std::string> own;   // "nccl 2.27.7 /path" for files under the directory
    std::set<std::string> plugins;  // plugins whose files came from the directory
};

Build probe_build(const RunOptions& run, const std::string& spec) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size())
        throw UsageError("--side-by-side takes NAME=LIBDIR, not '" + spec + "'");
    Build build;
    build.name = spec.substr(0, equals);
    std::error_code ec;
    build.directory = fs::canonical(spec.substr(equals + 1), ec);
    if (ec) throw UsageError("build " + build.name + ": '" + spec.substr(equals + 1) + "': " + ec.message());
    const char* existing = std::getenv("LD_LIBRARY_PATH");
    build.environment.push_back("LD_LIBRARY_PATH=" + build.directory.string() +
                                (existing && *existing ? ":" + std::string(existing) : ""));
    std::string prefix = build.directory.string() + "/";
    for (const PluginCandidate& candidate : discover_plugins(run.plugins, run.executable)) {
        if (candidate.refusal) continue;
        WorkerRequest request;
        request.strata_executable = run.executable;
        request.plugin_path = candidate.path;
        request.task = "probe";
        request.environment = build.environment;
        TaskOutcome outcome = run_worker_task(request);
        Report facts;
        for (Fact& fact : outcome.facts) facts.add_fact(std::move(fact));
        for (const Fact& fact : facts.facts()) {
            bool file = fact.value.is_string() &&
                        (fact.key.find(".loaded.") != std::string::npos || fact.key == "runtime.cudart.path");
            if (!file) continue;
            std::string path = fact.value.get<std::string>();
            build.loaded.insert(path);
            if (path.rfind(prefix, 0) != 0) continue;
            std::string plugin = fact.key.substr(fact.key.find('.') + 1);
            plugin = plugin.substr(0, plugin.find('.'));
            std::string version;
            for (const char* key : {"library.%s.version_text", "runtime.%s.version_text"}) {
                std::string k = key;
                k.replace(k.find("%s"), 2, plugin);
                if (auto v = fact_string(facts, k)) version = *v;
            }
            build.plugins.insert(outcome.plugin ? outcome.plugin->name : plugin);
            build.own.push_back(plugin + " " + version + " " + path);
        }
    }
    if (build.own.empty()) {
        std::string got;
        for (const std::string& path : build.loaded) got += (got.empty() ? "" : ", ") + path;
        throw UsageError("build " + build.name + ": nothing was loaded from " + build.directory.string() +
                         " (the loader took: " + (got.empty() ? "no CUDA library" : got) + ")");
    }
    return build;
}

int side_by_side(const RunOptions& run, const BenchOptions& options, const std::regex& filter) {
    if (options.side_by_side.size() < 2)
        throw UsageError("--side-by-side needs at least two NAME=LIBDIR builds");
    std::vector<Build> builds;
    std::set<std::string> names;
    for (const std::string& spec : options.side_by_side) {
        builds.push_back(probe_build(run, spec));
        if (!names.insert(builds.back().name).second)
            throw UsageError("build name '" + builds.back().name + "' is used twice");
    }
    for (size_t i = 0; i < builds.size(); ++i)
        for (size_t j = i + 1; j < builds.size(); ++j)
            if (builds[i].loaded == builds[j].loaded)
                throw UsageError("builds " + builds[i].name + " and " + builds[j].name +
                                 " loaded exactly the same files: that would compare a build with itself");
    for (const Build& build : builds) {
        std::cout << build.name << " (" << build.directory.string() << "):\n";
        for (const std::string& line : build.own) std::cout << "  " << line << "\n";
    }
    std::set<std::string> differing;
    for (const Build& build : builds) differing.insert(build.plugins.begin(), build.plugins.end());
    std::vector<BenchPlugin> plugins;
    for (BenchPlugin& p : plugins_with_benchmarks(run, filter))
        if (differing.count(p.record.name)) plugins.push_back(std::move(p));
    if (plugins.empty()) {
        std::cout << "no benchmark of the plugins these builds change matches --filter\n";
        return 1;
    }
    int rounds = options.repetitions > 0 ? options.repetitions : level_repetitions(options.level);
    std::vector<std::vector<Json>> runs(builds.size());
    // Interleaved A B A B ...: drift in clocks or temperature hits every build alike.
    for (int round = 0; round < rounds; ++round)
        for (size_t b = 0; b < builds.size(); ++b)
            for (const BenchPlugin& plugin : plugins) {
                if (::isatty(STDERR_FILENO))
                    std::cerr << "\rround " << round + 1 << "/" << rounds << ": " << builds[b].name << " "
                              << plugin.record.name << "   " << std::flush;
                RunnerResult result = run_runner(run, options, plugin, 0, 1, builds[b].environment);
                if (!result.skipped.empty()) {
                    std::cout << result.skipped << "\n";
                    return 1;
                }
                if (!result.error.empty()) throw std::runtime_error(result.error);
                runs[b].push_back(*result.results);
            }
    if (::isatty(STDERR_FILENO)) std::cerr << "\n";
    Json context = strata_context(run, options, runs[0]);
    std::vector<bench::ResultsFile> files;
    for (size_t b = 0; b < builds.size(); ++b)
        files.push_back(
            bench::parse_results(to_json_text(bench::merge_runs(runs[b], context)), builds[b].name));
    bool tripped = false;
    for (size_t b = 1; b < builds.size(); ++b) {
        std::cout << "\n" << builds[b].name << " against " << builds[0].name << ":\n";
        auto comparison = bench::compare_results(files[0], files[b], {});
        print_comparison(comparison, options.markdown);
        tripped |= comparison.gate_tripped;
    }
    return tripped ? 1 : 0;
}

}  // namespace

std::function<int()> register_bench(CLI::App& app, const std::string& executable) {
    auto options = std::make_shared<BenchOptions>();
    CLI::App* command = app.add_subcommand(
        "bench", "Run every plugin's benchmarks (Google Benchmark, CUDA-event timing, cold and hot)");
    add_plugin_options(*command, options->plugins);
    command->add_option("--level", options->level, "quick (under a minute per GPU), standard or long")
        ->check(CLI::IsMember({"quick", "standard", "long"}));
    command->add_option("--filter", options->filter, "Only benchmarks whose name matches this regex");
    command
        ->add_option("--repetitions", options->repetitions,
                     "Repetitions per benchmark (default: the level's)")
        ->check(CLI::PositiveNumber);
    command->add_option("--device", options->device, "GPU number, or all");
    command->add_option("--out", options->out, "Where to write the results (Google Benchmark JSON)")
        ->check(non_empty_path());
    command->add_flag("--markdown", options->markdown, "Print the table as Markdown");
    command
        ->add_option("--side-by-side", options->side_by_side,
                     "NAME=LIBDIR builds to compare, each put first on the library path of its own workers")
        ->expected(2, 16);

    return [options, executable]() {
        std::regex filter;
        try {
            filter = std::regex(options->filter);
        } catch (const std::regex_error& error) {
            throw UsageError("--filter '" + options->filter + "' is not a regex: " + error.what());
        }
        RunOptions run = make_run_options(options->plugins, executable);
        if (!fs::exists(runner_path(executable)))
            throw std::runtime_error("this strata was built without the benchmark runner (" +
                                     runner_path(executable).string() + "): build with CUDA");
        if (!options->side_by_side.empty()) return side_by_side(run, *options, filter);
        std::vector<int> devices = devices_for(options->device);
        std::vector<BenchPlugin> plugins = plugins_with_benchmarks(run, filter);
        if (plugins.empty()) throw UsageError("no benchmark matches --filter '" + options->filter + "'");
        size_t count = 0;
        for (const BenchPlugin& p : plugins) count += p.matching;
        int repetitions = options->repetitions > 0 ? options->repetitions : level_repetitions(options->level);
        double planned = static_cast<double>(count) * repetitions * level_min_time_s(options->level) * 1.5 *
                         static_cast<double>(devices.size());
        std::cerr << "planned: " << count << " run(s) (benchmark x mode) x " << repetitions
                  << " repetition(s) on " << devices.size() << " GPU(s), about "
                  << static_cast<int>(planned + 1) << " s (level " << options->level << ")\n";
        std::vector<Json> runs;
        std::vector<std::string> skipped;
        size_t step = 0, steps = devices.size() * plugins.size();
        for (int device : devices)
            for (const BenchPlugin& plugin : plugins) {
                if (::isatty(STDERR_FILENO))
                    std::cerr << "\r[" << ++step << "/" << steps << "] " << plugin.record.name << " on GPU "
                              << device << "   " << std::flush;
                RunnerResult result = run_runner(run, *options, plugin, device, repetitions, {});
                if (!result.skipped.empty()) skipped.push_back(plugin.record.name + ": " + result.skipped);
                if (!result.error.empty()) skipped.push_back(result.error);
                if (result.results) runs.push_back(*result.results);
            }
        if (::isatty(STDERR_FILENO)) std::cerr << "\n";
        for (const std::string& reason : skipped) std::cout << reason << "\n";
        if (runs.empty()) {
            std::cout << "nothing was measured\n";
            return 1;
        }
        Json merged = bench::merge_runs(runs, strata_context(run, *options, runs));
        std::ofstream out(options->out);
        out << to_json_text(merged, 2) << '\n';
        if (!out) throw UsageError("cannot write '" + options->out + "'");
        print_results(merged, options->markdown);
        std::cout << "results: " << options->out << "\n";
        return skipped.empty() ? 0 : 1;
    };
}

}  // namespace strata::cli
