#include "cli/run_options.h"

#include <cstdlib>

#include "probes/text_util.h"

namespace strata::cli {

void add_plugin_options(CLI::App& command, PluginOptions& options) {
    command.add_option(
        "--plugin-path", options.plugin_paths,
        "Also load plugins from this directory or file (repeatable; STRATA_PLUGIN_PATH adds more)");
    command.add_flag("--no-builtin-plugins", options.no_builtin_plugins,
                     "Do not load the plugins installed next to strata");
    command
        .add_option("--timeout", options.timeout_s,
                    "Deadline in seconds for each plugin task (default: the plugin's own)")
        ->check(CLI::PositiveNumber);
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

}  // namespace strata::cli
