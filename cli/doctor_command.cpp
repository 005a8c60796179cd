#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/run_options.h"
#include "model/usage_error.h"
#include "report/atomic_file.h"
#include "report/writers.h"

namespace strata::cli {

namespace {
// What `doctor --level health` may take: Slurm kills a HealthCheckProgram at
// 60 s, and the wrapper still has to drain the node after.
constexpr std::chrono::seconds kHealthBudget{40};
}  // namespace

void add_color_option(CLI::App& command, std::string& mode) {
    command
        .add_option("--color", mode, "Colour the text: auto (a terminal without NO_COLOR), always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
}

bool use_color(const std::string& mode) {
    if (mode == "always") return true;
    if (mode == "never") return false;
    const char* no_color = std::getenv("NO_COLOR");  // https://no-color.org: any non-empty value
    return ::isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

std::function<int()> register_doctor(CLI::App& app, const std::string& executable) {
    struct Options {
        PluginOptions plugins;
        EnvironmentOptions environments;
        bool json = false, markdown = false, no_selftest = false, prove_frameworks = false;
        std::string junit, color = "auto", prometheus, html, level = "full";
        std::vector<std::string> ignore_checks;
        HealthOptions health;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command =
        app.add_subcommand("doctor", "Check every layer of the CUDA stack (the default command)");
    add_plugin_options(*command, options->plugins);
    add_environment_options(*command, options->environments);
    auto* json = command->add_flag("--json", options->json, "Print the report as JSON");
    command->add_flag("--markdown", options->markdown, "Print the report as Markdown")->excludes(json);
    command->add_option("--junit", options->junit, "Also write the checks as JUnit XML to FILE")
        ->check(non_empty_path());
    add_prometheus_option(*command, options->prometheus);
    add_html_option(*command, options->html);
    add_ignore_check_option(*command, options->ignore_checks);
    add_health_options(*command, options->health);
    command->add_flag("--prove-frameworks", options->prove_frameworks,
                      "Also import each framework found, in a child with a deadline, and hold its own view "
                      "against strata's reading of its files");
    command->add_flag("--no-selftest", options->no_selftest, "Run probes only, no self-tests");
    command
        ->add_option("--level", options->level,
                     "full (every layer, the default) or health: driver to libraries with their self-tests, "
                     "no framework scan, done within 40 s (a Slurm HealthCheckProgram is killed at 60 s)")
        ->check(CLI::IsMember({"full", "health"}));
    add_color_option(*command, options->color);

    return [options, executable]() {
        auto started = std::chrono::steady_clock::now();
        for (const std::string* output : {&options->prometheus, &options->junit, &options->html})
            if (!output->empty()) prepare_output_file(*output);
        RunOptions run = make_run_options(options->plugins, options->environments, executable);
        run.selftests = !options->no_selftest;
        run.health = options->health;
        run.prove_frameworks = options->prove_frameworks;
        if (options->level == "health") {
            run.frameworks_scanned = false;
            run.missing_library_fails = false;
            run.deadline = started + kHealthBudget;
        }
        RunInfo info{"doctor", utc_timestamp_now(), {}};
        Report report = run_doctor(run, ProbeContext::live());
        report.ignore_checks(options->ignore_checks);
        info.duration =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
        if (!options->junit.empty()) write_file_atomically(options->junit, render_junit(report, info));
        if (!options->prometheus.empty())
            write_prometheus_file(options->prometheus, render_prometheus(report, info));
        if (!options->html.empty()) write_file_atomically(options->html, render_html(report, info));
        if (options->json)
            std::cout << to_json_text(report_to_json(report, info), 2) << '\n';
        else if (options->markdown)
            std::cout << render_markdown(report);
        else
            std::cout << render_text(report, use_color(options->color), terminal_columns());
        return report.exit_code();
    };
}

std::function<int()> register_env(CLI::App& app, const std::string& executable) {
    struct Options {
        PluginOptions plugins;
        EnvironmentOptions environments;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command =
        app.add_subcommand("env", "Print the environment record (every fact, with its source) as JSON");
    add_plugin_options(*command, options->plugins);
    add_environment_options(*command, options->environments);
    return [options, executable]() {
        Report report = run_environment(make_run_options(options->plugins, options->environments, executable),
                                        ProbeContext::live());
        Json out = {{"schema_version", report_schema_version}, {"environment", environment_to_json(report)}};
        std::cout << command_document(std::move(out), "env", 0);
        return 0;
    };
}

std::function<int()> register_plugins(CLI::App& app, const std::string& executable) {
    struct Options {
        PluginOptions plugins;
        bool json = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command =
        app.add_subcommand("plugins", "Load every plugin in a worker and report what happened");
    add_plugin_options(*command, options->plugins);
    command->add_flag("--json", options->json, "Print the load report as JSON");
    return [options, executable]() {
        RunInfo info{"plugins", utc_timestamp_now(), {}};
        Report report = run_load_report(make_run_options(options->plugins, executable));
        int status = 0;
        for (const PluginRecord& plugin : report.plugins())
            if (plugin.state != PluginState::loaded) status = 1;
        if (options->json) {
            Json full = report_to_json(report, info);
            std::cout << command_document(
                Json{{"schema_version", report_schema_version}, {"plugins", full["plugins"]}}, "plugins",
                status);
        } else {
            std::cout << render_plugin_table(report);
        }
        return status;
    };
}

}  // namespace strata::cli
