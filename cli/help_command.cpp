// strata help [COMMAND]: the same text as `strata [COMMAND] --help`, for
// people who type the other convention.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "model/usage_error.h"

namespace strata::cli {

std::function<int()> register_help(CLI::App& app) {
    auto topic = std::make_shared<std::string>();
    CLI::App* command = app.add_subcommand("help", "Show the help of strata, or of one command");
    command->add_option("command", *topic, "The command to describe");
    return [&app, topic]() {
        if (topic->empty()) {
            // Not app.help(): that describes the command parsed, `help`.
            std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
            return 0;
        }
        for (const CLI::App* sub : app.get_subcommands({}))
            if (sub->get_name() == *topic && !sub->get_group().empty()) {
                std::cout << sub->help(app.get_name());
                return 0;
            }
        throw UsageError("unknown command '" + *topic + "' (see strata help)");
    };
}

}  // namespace strata::cli
