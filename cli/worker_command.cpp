#include "cli/commands.h"
#include "model/usage_error.h"
#include "worker/worker_main.h"

namespace strata::cli {

std::function<int()> register_worker(CLI::App& app) {
    struct Options {
        std::string plugin, task;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command =
        app.add_subcommand("worker", "Run one plugin task and stream JSON Lines (used internally)");
    command->add_option("--plugin", options->plugin, "Plugin library")->required();
    command->add_option("--task", options->task, "describe, probe or selftest")
        ->required()
        ->check(CLI::IsMember({"describe", "probe", "selftest"}));
    return [options]() { return run_worker(options->plugin, *parse_worker_task(options->task)); };
}

}  // namespace strata::cli
