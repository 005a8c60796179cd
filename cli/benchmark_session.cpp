#include "cli/benchmark_session.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "benchmark_results.h"
#include "cli/jit_proof_session.h"
#include "doctor/plugin_tasks.h"
#include "levels.h"
#include "model/untrusted_input.h"
#include "model/usage_error.h"
#include "report/writers.h"
#include "results_merge.h"
#include "strata/plugin.h"

namespace strata::cli {

namespace fs = std::filesystem;
using bench::level_min_time_s;
using bench::level_repetitions;

void add_benchmark_options(CLI::App& command, BenchmarkRequest& request) {
    command.add_option("--level", request.level, "quick (under a minute per GPU), standard or long")
        ->check(CLI::IsMember({"quick", "standard", "long"}));
    command.add_option("--filter", request.filter, "Only benchmarks whose name matches this regex");
    command
        .add_option("--repetitions", request.repetitions, "Repetitions per benchmark (default: the level's)")
        ->check(CLI::PositiveNumber);
    command.add_option("--device", request.device, "GPU number, or all (default: " + request.device + ")");
    command.add_flag("--jit-installed", request.jit_installed,
                     "Also load each installed framework's PTX-only fat binaries through the driver's JIT "
                     "(record: always at --level standard and long)");
}

fs::path runner_path(const std::string& executable) {
    return (fs::path(executable).parent_path() / ".." / "lib" / "strata" / "strata-bench-runner")
        .lexically_normal();
}

bool runner_available(const std::string& executable) {
    std::error_code ec;
    return fs::exists(runner_path(executable), ec);
}

std::regex benchmark_filter(const std::string& text) {
    try {
        return std::regex(text);
    } catch (const std::regex_error& error) {
        throw UsageError("--filter '" + text + "' is not a regex: " + error.what());
    }
}

std::vector<BenchPlugin> described_plugins(const RunOptions& run) {
    std::vector<BenchPlugin> out;
    for (const PluginCandidate& candidate : discover_plugins(run.plugins, run.executable)) {
        if (candidate.refusal) continue;
        Report scratch;
        PluginRecord record = run_plugin_task(run, candidate, "describe", scratch);
        if (record.state == PluginState::loaded && !record.benchmarks.empty())
            out.push_back({candidate, std::move(record), 0});
    }
    return out;
}

std::vector<BenchPlugin> plugins_matching(std::vector<BenchPlugin> described, const std::regex& filter,
                                          long long gpus_visible) {
    std::vector<BenchPlugin> out;
    for (BenchPlugin& plugin : described) {
        const PluginRecord& record = plugin.record;
        size_t matching = 0;
        // The names the runner gives, so --filter means the same here and there.
        bool hot_only = (record.benchmark_flags & STRATA_BENCHMARKS_DRIVER_API) != 0;
        for (const auto& b : record.benchmarks)
            if (static_cast<long long>(b.gpus) <= gpus_visible)
                for (const char* mode : {"/mode:cold/device:", "/mode:hot/device:"})
                    if ((!hot_only || std::string_view(mode) != "/mode:cold/device:") &&
                        std::regex_search(record.name + "/" + b.name + "/" + b.parameters + mode, filter))
                        ++matching;
        plugin.matching = matching;
        if (matching > 0) out.push_back(std::move(plugin));
    }
    return out;
}

fs::path make_private_directory(const std::string& prefix) {
    std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw std::runtime_error("cannot create a private directory in " +
                                 fs::temp_directory_path().string() + ": " + std::strerror(errno));
    return pattern;
}

namespace {

// How many GPUs CUDA sees, from the driver plugin's device.count; 1 where it
// did not say (no driver: GPU 0's runner then says why).
long long gpus_visible(const Json& environment) {
    const Json& found = environment_value(environment, "device.count");
    return found.is_number_integer() ? std::clamp<long long>(found.get<long long>(), 1, 4096) : 1;
}

// The GPUs `--device` names, numbered as the runner's STRATA_BENCH_DEVICE
// means them: as CUDA numbers them. For `all`, the driver plugin's
// device.count (cuDeviceGetCount, which honours CUDA_VISIBLE_DEVICES and
// sees only the GPUs CUDA can use), not NVML's count of every GPU on the
// node; with no count (no driver), GPU 0, whose runner then says why.
std::vector<int> devices_for(const std::string& device, const Json& environment) {
    if (device != "all") {
        char* end = nullptr;
        long value = std::strtol(device.c_str(), &end, 10);
        if (device.empty() || *end != '\0' || value < 0 || value > 4096)
            throw UsageError("--device takes a GPU number or 'all', not '" + device + "'");
        return {static_cast<int>(value)};
    }
    std::vector<int> out;
    for (long long i = 0; i < gpus_visible(environment); ++i) out.push_back(static_cast<int>(i));
    return out;
}

}  // namespace

RunnerResult run_runner(const RunOptions& run, const BenchmarkRequest& request, const BenchPlugin& plugin,
                        int device, int repetitions, std::vector<std::string> environment,
                        std::optional<double> seconds_needed) {
    const fs::path directory = make_private_directory("strata-bench");
    const fs::path out = directory / (plugin.record.name + "-gpu" + std::to_string(device) + ".json");
    WorkerRequest worker;
    worker.strata_executable = runner_path(run.executable).string();
    worker.plugin_path = plugin.candidate.path;
    worker.task = "bench";
    worker.environment = std::move(environment);
    worker.environment.push_back("STRATA_BENCH_OUT=" + out.string());
    worker.environment.push_back("STRATA_BENCH_LEVEL=" + request.level);
    worker.environment.push_back("STRATA_BENCH_FILTER=" + request.filter);
    worker.environment.push_back("STRATA_BENCH_REPETITIONS=" + std::to_string(repetitions));
    worker.environment.push_back("STRATA_BENCH_DEVICE=" + std::to_string(device));
    // Generous: every benchmark, both modes, every repetition, plus set-up.
    double seconds = 60 + seconds_needed.value_or(4.0 * static_cast<double>(plugin.matching) * repetitions *
                                                  level_min_time_s(request.level));
    worker.deadline_override =
        run.timeout.value_or(std::chrono::milliseconds(static_cast<long long>(seconds * 1000)));
    // The runner stops starting benchmarks short of the deadline, leaving it
    // time to write what it measured (killed at the deadline, it keeps none).
    double deadline_s = static_cast<double>(worker.deadline_override->count()) / 1000;
    worker.environment.push_back("STRATA_BENCH_BUDGET_S=" +
                                 std::to_string(std::max(1.0, deadline_s * 0.9 - 10)));
    TaskOutcome outcome = run_worker_task(worker);
    RunnerResult result;
    for (const Check& check : outcome.checks)
        if ((check.id == "bench." + plugin.record.name || check.id == "bench.jit_installed") &&
            check.status == Status::skip)
            result.skipped = check.summary;
        else if (check.id == "bench." + plugin.record.name + ".needs_gpus")
            result.notes.push_back(plugin.record.name + ": " + check.summary);
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

Json strata_context(const RunOptions& run, const std::string& level, const std::vector<Json>& runs,
                    const Json* environment) {
    Json context = {
        {"level", level},
        {"environment",
         environment ? *environment : environment_to_json(run_environment(run, ProbeContext::live()))}};
    for (const Json& r : runs)
        if (r.contains("context") && r["context"].contains("strata_clock_policy")) {
            context["clock_policy"] = r["context"]["strata_clock_policy"];
            break;
        }
    return context;
}

BenchmarkSession run_benchmarks(const RunOptions& run, const BenchmarkRequest& request,
                                const Json* environment) {
    std::regex filter = benchmark_filter(request.filter);
    // The environment first: it numbers the GPUs for --device all, and is
    // the results' context.
    Json probed;
    if (!environment) {
        probed = environment_to_json(run_environment(run, ProbeContext::live()));
        environment = &probed;
    }
    std::vector<int> devices = devices_for(request.device, *environment);
    std::vector<BenchPlugin> described = described_plugins(run);
    std::vector<BenchPlugin> plugins = plugins_matching(described, filter, gpus_visible(*environment));
    if (plugins.empty() && !request.jit_installed)
        throw UsageError("no benchmark matches --filter '" + request.filter + "'");
    size_t count = 0;
    for (const BenchPlugin& p : plugins) count += p.matching;
    int repetitions = request.repetitions > 0 ? request.repetitions : level_repetitions(request.level);
    double planned = static_cast<double>(count) * repetitions * level_min_time_s(request.level) * 1.5 *
                     static_cast<double>(devices.size());
    if (count > 0)
        std::cerr << "planned: " << count << " run(s) (benchmark x mode) x " << repetitions
                  << " repetition(s) on " << devices.size() << " GPU(s), about "
                  << static_cast<int>(planned + 1) << " s (level " << request.level << ")\n";
    std::vector<Json> runs;
    BenchmarkSession session;
    size_t step = 0, steps = devices.size() * plugins.size();
    for (int device : devices)
        for (const BenchPlugin& plugin : plugins) {
            if (::isatty(STDERR_FILENO))
                std::cerr << "\r[" << ++step << "/" << steps << "] " << plugin.record.name << " on GPU "
                          << device << "   " << std::flush;
            RunnerResult result = run_runner(run, request, plugin, device, repetitions, {});
            if (!result.skipped.empty())
                session.skipped.push_back(plugin.record.name + ": " + result.skipped);
            if (!result.error.empty()) session.skipped.push_back(result.error);
            session.notes.insert(session.notes.end(), result.notes.begin(), result.notes.end());
            if (result.results) runs.push_back(*result.results);
        }
    if (::isatty(STDERR_FILENO)) std::cerr << "\n";
    if (request.jit_installed)
        run_jit_proofs(run, request, filter, described, devices, *environment, runs, session);
    if (!runs.empty())
        session.merged = bench::merge_runs(runs, strata_context(run, request.level, runs, environment));
    return session;
}

}  // namespace strata::cli
