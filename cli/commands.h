// The `strata` subcommands. Each returns the process exit status:
// 0 all passed, 1 a check failed, 2 bad usage or input, 3 strata failed.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "diagnosis/health_rules.h"

namespace strata::cli {

// Options every command that runs plugins shares.
struct PluginOptions {
    std::vector<std::string> plugin_paths;
    bool no_builtin_plugins = false;
    double timeout_s = 0;  // 0: each plugin's own deadline
};

void add_plugin_options(CLI::App& command, PluginOptions& options);

// Which Python environments the framework layer reads (doctor, env, frameworks).
struct EnvironmentOptions {
    std::vector<std::string> pythons, site_packages;
};
void add_environment_options(CLI::App& command, EnvironmentOptions& options);

// --kernel-log FILE, --expect-gpus N: what the node-health checks read.
void add_health_options(CLI::App& command, HealthOptions& options);

// --ignore-check PATTERN (repeatable): checks reported but not judged.
void add_ignore_check_option(CLI::App& command, std::vector<std::string>& patterns);

// Each registers its subcommand and returns the function that runs it.
std::function<int()> register_doctor(CLI::App& app, const std::string& executable);
std::function<int()> register_env(CLI::App& app, const std::string& executable);
std::function<int()> register_plugins(CLI::App& app, const std::string& executable);
std::function<int()> register_worker(CLI::App& app);
std::function<int()> register_arch(CLI::App& app);
std::function<int()> register_frameworks(CLI::App& app);
std::function<int()> register_explain(CLI::App& app, const std::string& executable);
std::function<int()> register_compare(CLI::App& app);
std::function<int()> register_bench(CLI::App& app, const std::string& executable);
std::function<int()> register_record(CLI::App& app, const std::string& executable);
std::function<int()> register_rollout(CLI::App& app, const std::string& executable);
std::function<int()> register_fleet(CLI::App& app);
// `strata help [COMMAND]`: register last, so that it knows every command.
std::function<int()> register_help(CLI::App& app);

std::string version_text();

// --color auto|always|never (the commands whose text marks statuses in
// colour: doctor, frameworks); auto: a terminal, unless NO_COLOR is set.
void add_color_option(CLI::App& command, std::string& mode);
bool use_color(const std::string& mode);

}  // namespace strata::cli
