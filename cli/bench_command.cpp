// strata bench [--level quick|standard|long] [--filter RE] [--repetitions N]
//              [--device N|all] [--out FILE] [--markdown]
// strata bench --side-by-side NAME=LIBDIR NAME=LIBDIR ...
//
// Every plugin's benchmarks run in the benchmark runner (bench/runner), a
// worker like any other: isolated, with a deadline, one per plugin and GPU.
// Its Google Benchmark files are merged into one strict JSON document with
// strata's environment record in context.strata.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>

#include "benchmark_results.h"
#include "change_text.h"
#include "cli/benchmark_session.h"
#include "cli/commands.h"
#include "cli/comparison_output.h"
#include "cli/run_options.h"
#include "comparison.h"
#include "diagnosis/fact_access.h"
#include "doctor/plugin_tasks.h"
#include "levels.h"
#include "model/usage_error.h"
#include "plugins/plugin_trust.h"
#include "report/atomic_file.h"
#include "report/writers.h"
#include "results_html.h"
#include "results_merge.h"

namespace strata::cli {

namespace {

namespace fs = std::filesystem;

struct BenchOptions {
    PluginOptions plugins;
    EnvironmentOptions environments;  // where --jit-installed looks for frameworks
    BenchmarkRequest request;
    std::string out = "strata-bench.json", html;
    bool markdown = false;
    std::vector<std::string> side_by_side;
};

using bench::level_repetitions;

// Prints the table; true when a benchmark reported an error (a validation
// that did not match, a fat binary the driver's JIT refused).
bool print_results(const Json& merged, bool markdown) {
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
    bool failed = false;
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
                                                      : bench::time_text(bench::median(series.samples));
        if (markdown) {
            std::cout << "| " << series.name << " | " << median << " | " << gbps << " | " << tflops << " | "
                      << pct << " |\n";
        } else {
            // Only the figures the benchmark has: a module load has no GB/s.
            std::cout << series.name << "  " << median;
            if (gbps[0] != '-') std::cout << "  " << gbps << " GB/s";
            if (tflops[0] != '-') std::cout << "  " << tflops << " TFLOP/s";
            if (pct[0] != '-') std::cout << "  " << pct << "% of peak";
            if (double jit = counter(series.name, "jit_wall_ms"); jit >= 0) std::printf("  JIT %.3g ms", jit);
            std::cout << "\n";
        }
        failed |= !series.error.empty();
    }
    return failed;
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

// NAME=LIBDIR, the directory checked before any worker loads from it.
Build parse_build(const std::string& spec) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size())
        throw UsageError("--side-by-side takes NAME=LIBDIR, not '" + spec + "'");
    Build build;
    build.name = spec.substr(0, equals);
    std::error_code ec;
    build.directory = fs::canonical(spec.substr(equals + 1), ec);
    if (ec) throw UsageError("build " + build.name + ": '" + spec.substr(equals + 1) + "': " + ec.message());
    // Its libraries load first in workers that run as strata, often root.
    if (auto refusal = check_library_directory_trust(build.directory))
        throw UsageError("build " + build.name + ": not loaded: " + *refusal);
    const char* existing = std::getenv("LD_LIBRARY_PATH");
    build.environment.push_back("LD_LIBRARY_PATH=" + build.directory.string() +
                                (existing && *existing ? ":" + std::string(existing) : ""));
    return build;
}

// Which files the build's workers really load, and which are its own.
void probe_build(const RunOptions& run, Build& build) {
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
}

int side_by_side(const RunOptions& run, const BenchOptions& options, const std::regex& filter) {
    if (options.side_by_side.size() < 2)
        throw UsageError("--side-by-side needs at least two NAME=LIBDIR builds");
    std::vector<Build> builds;
    std::set<std::string> names;
    // Every build is checked before any worker loads from one.
    for (const std::string& spec : options.side_by_side) {
        builds.push_back(parse_build(spec));
        if (!names.insert(builds.back().name).second)
            throw UsageError("build name '" + builds.back().name + "' is used twice");
    }
    for (Build& build : builds) probe_build(run, build);
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
    for (BenchPlugin& p : plugins_matching(described_plugins(run), filter))
        if (differing.count(p.record.name)) plugins.push_back(std::move(p));
    if (plugins.empty()) {
        std::cout << "no benchmark of the plugins these builds change matches --filter\n";
        return 1;
    }
    int rounds = options.request.repetitions > 0 ? options.request.repetitions
                                                 : level_repetitions(options.request.level);
    std::vector<std::vector<Json>> runs(builds.size());
    // Interleaved A B A B ...: drift in clocks or temperature hits every build alike.
    for (int round = 0; round < rounds; ++round)
        for (size_t b = 0; b < builds.size(); ++b)
            for (const BenchPlugin& plugin : plugins) {
                if (::isatty(STDERR_FILENO))
                    std::cerr << "\rround " << round + 1 << "/" << rounds << ": " << builds[b].name << " "
                              << plugin.record.name << "   " << std::flush;
                RunnerResult result = run_runner(run, options.request, plugin, 0, 1, builds[b].environment);
                if (!result.skipped.empty()) {
                    std::cout << result.skipped << "\n";
                    return 1;
                }
                if (!result.error.empty()) throw std::runtime_error(result.error);
                runs[b].push_back(*result.results);
            }
    if (::isatty(STDERR_FILENO)) std::cerr << "\n";
    Json context = strata_context(run, options.request.level, runs[0]);
    std::vector<bench::ResultsFile> files;
    for (size_t b = 0; b < builds.size(); ++b)
        files.push_back(
            bench::parse_results(to_json_text(bench::merge_runs(runs[b], context)), builds[b].name));
    bool tripped = false;
    std::vector<bench::Comparison> comparisons;
    for (size_t b = 1; b < builds.size(); ++b) {
        std::cout << "\n" << builds[b].name << " against " << builds[0].name << ":\n";
        comparisons.push_back(bench::compare_results(files[0], files[b], {}));
        print_comparison(comparisons.back(), options.markdown);
        tripped |= comparisons.back().gate_tripped;
    }
    if (!options.html.empty()) {
        std::vector<fleet::ComparedRuns> pairs;
        for (size_t b = 1; b < builds.size(); ++b)
            pairs.push_back({builds[0].name, builds[b].name, &files[0], &files[b], &comparisons[b - 1]});
        write_file_atomically(options.html, fleet::render_comparison_html(pairs, "real_time"));
    }
    return tripped ? 1 : 0;
}

}  // namespace

std::function<int()> register_bench(CLI::App& app, const std::string& executable) {
    auto options = std::make_shared<BenchOptions>();
    CLI::App* command = app.add_subcommand(
        "bench", "Run every plugin's benchmarks (Google Benchmark, CUDA-event timing, cold and hot)");
    add_plugin_options(*command, options->plugins);
    add_benchmark_options(*command, options->request);
    add_environment_options(*command, options->environments);
    command->add_option("--out", options->out, "Where to write the results (Google Benchmark JSON)")
        ->check(non_empty_path());
    command->add_flag("--markdown", options->markdown, "Print the table as Markdown");
    add_html_option(*command, options->html);
    command
        ->add_option("--side-by-side", options->side_by_side,
                     "NAME=LIBDIR builds to compare, each put first on the library path of its own workers")
        ->expected(2, 16)
        ->option_text("NAME=LIBDIR");

    return [options, executable]() {
        std::regex filter = benchmark_filter(options->request.filter);
        for (const std::string* output : {&options->out, &options->html})
            if (!output->empty()) prepare_output_file(*output);
        RunOptions run = make_run_options(options->plugins, options->environments, executable);
        if (!runner_available(executable))
            throw std::runtime_error("this strata was built without the benchmark runner (" +
                                     runner_path(executable).string() + "): build with CUDA");
        if (!options->side_by_side.empty()) return side_by_side(run, *options, filter);
        BenchmarkSession session = run_benchmarks(run, options->request);
        for (const std::string& reason : session.skipped) std::cout << reason << "\n";
        for (const std::string& note : session.notes) std::cout << note << "\n";
        std::vector<std::string> notes = session.skipped;
        notes.insert(notes.end(), session.notes.begin(), session.notes.end());
        if (!session.merged) {
            std::cout << "nothing was measured\n";
            // The page says so too, with why: a job that attaches it shows the reason.
            if (!options->html.empty())
                write_file_atomically(options->html, fleet::render_results_html(bench::ResultsFile{}, notes));
            return 1;
        }
        write_file_atomically(options->out, to_json_text(*session.merged, 2) + "\n");
        bool failed = print_results(*session.merged, options->markdown);
        if (!options->html.empty())
            write_file_atomically(
                options->html, fleet::render_results_html(
                                   bench::parse_results(to_json_text(*session.merged), options->out), notes));
        std::cout << "results: " << options->out << "\n";
        return session.skipped.empty() && !failed ? 0 : 1;
    };
}

}  // namespace strata::cli
