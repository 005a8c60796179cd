// strata rollout BASE CAND [--threshold 3%] [--json | --markdown]
// strata rollout --compat-driver DIR [--sessions N] [--level L]
//
// Decides whether a candidate driver can replace the base one: go, no-go or
// inconclusive, with the reasons first (fleet/src/rollout.h). Each side is a
// record, several, or a directory of them; plain Google Benchmark files are
// records holding only benchmarks. With --compat-driver, this node records
// its installed driver and the forward-compatibility driver in DIR
// alternately, each session a fresh `strata record` process, and decides the
// same way: a driver qualified without a reboot.
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "diagnosis/fact_access.h"
#include "diagnosis/rules.h"
#include "frameworks/python_metadata.h"
#include "model/usage_error.h"
#include "plugins/plugin_trust.h"
#include "probes/run_program.h"
#include "record.h"
#include "report/atomic_file.h"
#include "report/writers.h"
#include "rollout.h"
#include "rollout_report.h"

namespace strata::cli {

namespace {

namespace fs = std::filesystem;

struct RolloutOptions {
    PluginOptions plugins;
    std::vector<std::string> sides, base, candidate, ignore_checks;
    std::string threshold = "3%", metric = "auto", time_metric = "real_time";
    double confidence = 95;
    bool json = false, markdown = false;
    // --compat-driver
    std::string compat_driver, keep, level = "quick", filter = ".", html;
    int sessions = 3, repetitions = 0;
    double session_timeout_s = 3600;
    bool no_benchmarks = false;
};

int print_decision(const fleet::RolloutResult& result, const RolloutOptions& options) {
    int status = result.decision == fleet::Decision::go ? 0 : 1;
    if (!options.html.empty()) write_file_atomically(options.html, fleet::render_rollout_html(result));
    if (options.json)
        std::cout << command_document(fleet::rollout_to_json(result), "rollout", status);
    else if (options.markdown)
        std::cout << fleet::render_rollout_markdown(result);
    else
        std::cout << fleet::render_rollout_text(result);
    return status;
}

// ---- --compat-driver ------------------------------------------------------

// "590.44.01" from DIR's libcuda.so.590.44.01 (what a cuda-compat package
// installs beside the libcuda.so.1 link), or "".
std::string compat_driver_version(const fs::path& directory) {
    std::error_code ec;
    for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        std::string version = version_from_library_path(it->path().filename().string(), "libcuda.so");
        if (!version.empty()) return version;
    }
    return "";
}

// Why forward compatibility cannot be exercised here (empty when it can).
std::vector<std::string> compat_refusals(const Report& environment, const std::string& compat_version) {
    std::vector<std::string> out;
    auto count = fact_int(environment, "device.count").value_or(0);
    if (count <= 0) {
        const Check* init = environment.find_check("driver.cuda_init");
        out.push_back("no GPU to measure on this node" + (init ? ": " + init->summary : std::string()));
        return out;
    }
    for (long long i = 0; i < count; ++i) {
        std::string name = fact_string(environment, "device." + std::to_string(i) + ".name").value_or("");
        std::string lower;
        for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower.find("geforce") != std::string::npos || lower.find("titan") != std::string::npos)
            out.push_back(
                "GPU " + std::to_string(i) + " (" + name +
                ") does not support forward compatibility (data-centre GPUs, select NGC-ready RTX and "
                "Jetson only: the compat driver would fail with error 804); qualify the driver by "
                "installing it on a canary node and comparing records before and after");
    }
    std::string kernel_module =
        fact_string(environment, "driver.kernel_module.version")
            .value_or(fact_string(environment, "driver.nvml.driver_version").value_or(""));
    if (!compat_version.empty() && !kernel_module.empty() &&
        compare_versions(compat_version, kernel_module) <= 0)
        out.push_back("the driver in the compat directory (" + compat_version +
                      ") is not newer than the kernel module (" + kernel_module +
                      "): forward compatibility runs a newer user-mode driver on an older kernel module");
    return out;
}

int compat_rollout(const RolloutOptions& options, const std::string& executable) {
    std::error_code ec;
    fs::path directory = fs::canonical(options.compat_driver, ec);
    if (ec || !fs::is_directory(directory))
        throw UsageError("--compat-driver '" + options.compat_driver + "': not a directory");
    if (!fs::exists(directory / "libcuda.so.1"))
        throw UsageError("--compat-driver '" + options.compat_driver +
                         "': no libcuda.so.1 there (a cuda-compat package installs it, e.g. in "
                         "/usr/local/cuda/compat)");
    // Its driver loads first in workers that run as strata, often root.
    if (auto refusal = check_library_directory_trust(directory))
        throw UsageError("--compat-driver '" + options.compat_driver + "': not loaded: " + *refusal);
    RunOptions run = make_run_options(options.plugins, executable);
    Report environment = run_environment(run, ProbeContext::live());
    std::string compat_version = compat_driver_version(directory);
    fleet::RolloutResult refused;
    refused.reasons = compat_refusals(environment, compat_version);
    if (!refused.reasons.empty()) {
        refused.reasons.insert(refused.reasons.begin(), "forward compatibility does not apply on this node");
        return print_decision(refused, options);
    }

    fs::path keep;
    if (!options.keep.empty()) {
        keep = options.keep;
        fs::create_directories(keep, ec);
        if (ec) throw UsageError("--keep '" + options.keep + "': " + ec.message());
    } else {
        std::string pattern = (fs::temp_directory_path() / "strata-rollout-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            throw std::runtime_error("cannot create a private directory: " +
                                     std::string(std::strerror(errno)));
        keep = pattern;
    }
    // Without --keep the session records are this run's alone: gone with
    // it, however it ends.
    struct RemoveUnkept {
        fs::path directory;
        ~RemoveUnkept() {
            std::error_code ignored;
            if (!directory.empty()) fs::remove_all(directory, ignored);
        }
    } remove_unkept{options.keep.empty() ? keep : fs::path()};
    const char* library_path = std::getenv("LD_LIBRARY_PATH");
    std::string compat_path = "LD_LIBRARY_PATH=" + directory.string() +
                              (library_path && *library_path ? ":" + std::string(library_path) : "");
    std::vector<std::string> common = {executable,    "record",   "--level",
                                       options.level, "--filter", options.filter};
    if (options.repetitions > 0)
        common.insert(common.end(), {"--repetitions", std::to_string(options.repetitions)});
    if (options.no_benchmarks) common.push_back("--no-benchmarks");
    for (const std::string& path : options.plugins.plugin_paths)
        common.insert(common.end(), {"--plugin-path", path});
    if (options.plugins.no_builtin_plugins) common.push_back("--no-builtin-plugins");
    if (options.plugins.timeout_s > 0)
        common.insert(common.end(), {"--timeout", std::to_string(options.plugins.timeout_s)});

    std::vector<std::string> base_files, candidate_files;
    auto deadline = std::chrono::milliseconds(static_cast<long long>(options.session_timeout_s * 1000));
    // A B A B ...: drift in clocks or temperature falls on both drivers alike.
    for (int session = 1; session <= options.sessions; ++session)
        for (bool compat : {false, true}) {
            std::string label = std::string(compat ? "CAND" : "BASE") + " session " + std::to_string(session);
            fs::path out = keep / ((compat ? "candidate-" : "base-") + std::to_string(session) + ".json");
            std::vector<std::string> argv = common;
            argv.insert(argv.end(), {"--out", out.string()});
            std::cerr << label << " (" << (compat ? directory.string() : "installed driver") << ")\n";
            ProgramResult result =
                run_program(argv, deadline, 1 << 20,
                            compat ? std::vector<std::string>{compat_path} : std::vector<std::string>{});
            if ((result.exit_status != 0 && result.exit_status != 1) || !fs::exists(out))
                throw std::runtime_error(label + ": strata record " + result.problem);
            (compat ? candidate_files : base_files).push_back(out.string());
        }
    fleet::RolloutOptions decision_options;
    decision_options.threshold = parse_percentage("--threshold", options.threshold);
    decision_options.confidence = options.confidence / 100;
    decision_options.metric = options.metric;
    decision_options.ignore_checks = options.ignore_checks;
    fleet::RolloutResult result = fleet::decide_rollout(
        fleet::read_records(base_files), fleet::read_records(candidate_files), decision_options);
    result.notes.push_back("sessions: " + std::to_string(options.sessions) + " per driver, interleaved" +
                           (options.keep.empty() ? " (records not kept: --keep DIR keeps them)"
                                                 : "; records in " + keep.string()));
    return print_decision(result, options);
}

}  // namespace

std::function<int()> register_rollout(CLI::App& app, const std::string& executable) {
    auto options = std::make_shared<RolloutOptions>();
    CLI::App* command = app.add_subcommand(
        "rollout",
        "Decide go / no-go / inconclusive for a candidate driver from records of both (exit 0 only for go)");
    command
        ->add_option("sides", options->sides,
                     "BASE CAND: each a record, a Google Benchmark file or a directory")
        ->expected(0, 2)
        ->option_text("[BASE CAND]");
    command->add_option("--base", options->base, "More BASE records or directories (repeatable)")
        ->check(non_empty_path());
    command->add_option("--candidate", options->candidate, "More CAND records or directories (repeatable)")
        ->check(non_empty_path());
    command->add_option("--threshold", options->threshold, "The performance loss that matters (default 3%)");
    command
        ->add_option("--confidence", options->confidence,
                     "Confidence of the intervals, in percent (default 95)")
        ->check(CLI::Range(50.0, 99.9));
    command->add_option(
        "--metric", options->metric,
        "What to judge per benchmark: auto (a rate counter when there is one, else the time), "
        "real_time, cpu_time or a counter name");
    auto* json = command->add_flag("--json", options->json, "Print the decision as JSON");
    command->add_flag("--markdown", options->markdown, "Print the decision as Markdown")->excludes(json);
    add_html_option(*command, options->html);
    command
        ->add_option("--compat-driver", options->compat_driver,
                     "Qualify the forward-compatibility driver in DIR against the installed one on this node")
        ->check(non_empty_path());
    command->add_option("--sessions", options->sessions, "--compat-driver: sessions per driver (default 3)")
        ->check(CLI::Range(1, 100));
    command->add_option("--level", options->level, "--compat-driver: benchmark level of each session")
        ->check(CLI::IsMember({"quick", "standard", "long"}));
    command->add_option("--filter", options->filter, "--compat-driver: only benchmarks matching this regex");
    command->add_option("--repetitions", options->repetitions, "--compat-driver: repetitions per benchmark")
        ->check(CLI::PositiveNumber);
    command->add_flag("--no-benchmarks", options->no_benchmarks, "--compat-driver: compare the checks only");
    command
        ->add_option("--keep", options->keep, "--compat-driver: keep the session records in this directory")
        ->check(non_empty_path());
    command
        ->add_option("--session-timeout", options->session_timeout_s,
                     "--compat-driver: seconds one session may take (default 3600)")
        ->check(CLI::Range(1.0, 86400.0));
    add_ignore_check_option(*command, options->ignore_checks);
    add_plugin_options(*command, options->plugins);

    return [options, executable]() {
        double threshold = parse_percentage("--threshold", options->threshold);
        if (options->metric.empty()) throw UsageError("--metric needs a value");
        if (!options->html.empty()) prepare_output_file(options->html);
        if (!options->compat_driver.empty()) {
            if (!options->sides.empty() || !options->base.empty() || !options->candidate.empty())
                throw UsageError("--compat-driver records both sides itself: give no BASE or CAND");
            return compat_rollout(*options, executable);
        }
        std::vector<std::string> base = options->base, candidate = options->candidate;
        if (options->sides.size() == 1)
            throw UsageError("give BASE and CAND (or --base and --candidate), not one side");
        if (options->sides.size() == 2) {
            base.insert(base.begin(), options->sides[0]);
            candidate.insert(candidate.begin(), options->sides[1]);
        }
        if (base.empty() || candidate.empty())
            throw UsageError("give BASE and CAND: records, Google Benchmark files or directories of them");
        bench::TimeMetric time =
            options->metric == "cpu_time" ? bench::TimeMetric::cpu_time : bench::TimeMetric::real_time;
        fleet::RolloutOptions decision_options;
        decision_options.threshold = threshold;
        decision_options.confidence = options->confidence / 100;
        decision_options.metric = options->metric;
        decision_options.ignore_checks = options->ignore_checks;
        return print_decision(fleet::decide_rollout(fleet::read_records(base, time),
                                                    fleet::read_records(candidate, time), decision_options),
                              *options);
    };
}

}  // namespace strata::cli
