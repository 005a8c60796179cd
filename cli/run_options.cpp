#include "cli/run_options.h"

#include <cstdlib>
#include <iostream>

#include "model/usage_error.h"
#include "probes/text_util.h"
#include "report/atomic_file.h"

namespace strata::cli {

namespace {
constexpr int kMaxTimeoutSeconds = 86'400;  // a day
}  // namespace

void add_plugin_options(CLI::App& command, PluginOptions& options) {
    command
        .add_option(
            "--plugin-path", options.plugin_paths,
            "Also load plugins from this directory or file (repeatable; STRATA_PLUGIN_PATH adds more)")
        ->check(non_empty_path());
    command.add_flag("--no-builtin-plugins", options.no_builtin_plugins,
                     "Do not load the plugins installed next to strata");
    command
        .add_option("--timeout", options.timeout_s,
                    "Deadline in seconds for each plugin task (default: the plugin's own)")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                // Bounded so that seconds * 1000 fits a millisecond count.
                char* end = nullptr;
                double seconds = std::strtod(text.c_str(), &end);
                if (text.empty() || *end != '\0' || !(seconds > 0) || seconds > kMaxTimeoutSeconds)
                    return "takes seconds between 0 and " + std::to_string(kMaxTimeoutSeconds) + ", not '" +
                           text.substr(0, 40) + "'";
                return {};
            },
            "SECONDS"));
}

void add_environment_options(CLI::App& command, EnvironmentOptions& options) {
    // One value per occurrence, so a positional argument after them (the
    // text `strata explain` is given) is not taken for a second directory.
    command
        .add_option("--python", options.pythons,
                    "Read the frameworks of this Python interpreter's environment (repeatable; default: "
                    "VIRTUAL_ENV, CONDA_PREFIX and python3 on PATH)")
        ->allow_extra_args(false)
        ->check(non_empty_path());
    command
        .add_option("--site-packages", options.site_packages,
                    "Read the frameworks installed in this directory (repeatable)")
        ->allow_extra_args(false)
        ->check(non_empty_path());
}

RunOptions make_run_options(const PluginOptions& options, const EnvironmentOptions& environments,
                            const std::string& executable) {
    RunOptions run = make_run_options(options, executable);
    run.frameworks.environments = {environments.pythons, environments.site_packages};
    return run;
}

RunOptions make_run_options(const PluginOptions& options, const std::string& executable) {
    RunOptions run;
    run.executable = executable;
    run.plugins.include_builtin = !options.no_builtin_plugins;
    run.plugins.paths = options.plugin_paths;
    if (const char* env = std::getenv("STRATA_PLUGIN_PATH"))
        for (std::string& path : split_path_list(env)) run.plugins.paths.push_back(std::move(path));
    if (options.timeout_s > 0)
        run.timeout = std::chrono::milliseconds(static_cast<long long>(options.timeout_s * 1000));
    return run;
}

CLI::Validator non_empty_path() {
    return CLI::Validator(
        [](std::string& text) { return text.empty() ? std::string("an empty path") : std::string(); },
        "PATH");
}

double parse_percentage(const std::string& option, const std::string& text, bool zero_allowed) {
    std::string number = text;
    if (!number.empty() && number.back() == '%') number.pop_back();
    char* end = nullptr;
    double value = std::strtod(number.c_str(), &end);
    bool in_range = zero_allowed ? value >= 0 : value > 0;
    if (number.empty() || *end != '\0' || !in_range || !(value < 100))
        throw UsageError(option + " takes a percentage " + (zero_allowed ? "from 0" : "above 0") +
                         " and below 100 (\"3%\" or \"3\"), not '" + text.substr(0, 40) + "'");
    return value / 100;
}

void add_health_options(CLI::App& command, HealthOptions& options) {
    command
        .add_option("--kernel-log", options.kernel_log,
                    "Read Xid events from this saved kernel log (dmesg, journalctl -k, /dev/kmsg) instead of "
                    "the live one")
        ->check(non_empty_path());
    command
        .add_option("--expect-gpus", options.expected_gpus,
                    "The node must show this many GPUs (health.gpu_count fails with fewer)")
        ->check(CLI::Range(0L, 4096L));
}

void add_ignore_check_option(CLI::App& command, std::vector<std::string>& patterns) {
    command
        .add_option("--ignore-check", patterns,
                    "Report checks whose id matches this shell pattern (repeatable) but do not fail on them: "
                    "a check known to fail on every node of a fleet")
        ->allow_extra_args(false);
}

void add_html_option(CLI::App& command, std::string& path) {
    command
        .add_option("--html", path,
                    "Also write a self-contained HTML report (plots and the numbers behind them) to this file")
        ->check(non_empty_path());
}

void add_prometheus_option(CLI::App& command, std::string& path) {
    command
        .add_option("--prometheus", path,
                    "Also write node_exporter textfile metrics to FILE (*.prom), atomically")
        ->check(non_empty_path());
}

void write_prometheus_file(const std::string& path, const std::string& text) {
    if (path.size() < 5 || path.compare(path.size() - 5, 5, ".prom") != 0)
        std::cerr << "strata: note: node_exporter's textfile collector reads only *.prom files; '" << path
                  << "' is written all the same\n";
    write_file_atomically(path, text);
}

std::string command_document(Json document, const std::string& command, int exit_code) {
    document["command"] = command;
    document["exit_code"] = exit_code;
    return to_json_text(document, 2) + "\n";
}

}  // namespace strata::cli
