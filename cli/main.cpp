// strata: proves, layer by layer, that a machine's CUDA stack works.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/help_formatter.h"
#include "doctor/build_info.h"
#include "model/usage_error.h"
#include "report/terminal_safe_output.h"
#include "worker/child_groups.h"

namespace strata::cli {

std::string version_text() {
    const BuildInfo& info = build_info();
    std::string architectures;
    for (const std::string& arch : info.architectures)
        architectures += (architectures.empty() ? "" : " ") + arch;
    return "strata " + info.version + "\n" + "revision: " + info.git_revision + "\n" +
           "build type: " + info.build_type + "\n" + "CUDA toolkit: " + info.cuda_toolkit + "\n" +
           "kernel architectures: " + (architectures.empty() ? "none (built without nvcc)" : architectures) +
           "\n";
}

namespace {

// The worker is this same binary; /proc/self/exe survives a relative argv[0].
std::string own_executable(const char* argv0) {
    char path[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n > 0) return std::string(path, static_cast<size_t>(n));
    return argv0;
}

// `strata --json` is `strata doctor --json`, as bare `strata` is `strata
// doctor`: options before any command belong to doctor, except the ones the
// top level itself answers.
std::vector<const char*> arguments_with_default_command(int argc, char** argv) {
    std::vector<const char*> arguments(argv, argv + argc);
    if (argc > 1 && argv[1][0] == '-') {
        std::string first = argv[1];
        if (first != "-h" && first != "--help" && first != "--help-all" && first != "--version")
            arguments.insert(arguments.begin() + 1, "doctor");
    }
    return arguments;
}

// The command a usage error is about: the first argument that names one.
std::string command_named(const std::vector<const char*>& arguments,
                          const std::map<std::string, std::function<int()>>& commands) {
    for (size_t i = 1; i < arguments.size(); ++i)
        if (arguments[i][0] != '-') return commands.count(arguments[i]) ? arguments[i] : "";
    return "";
}

}  // namespace

}  // namespace strata::cli

int main(int argc, char** argv) {
    using namespace strata;
    std::string executable = cli::own_executable(argv[0]);
    // Named, so that help says `Usage: strata doctor`, not the path the
    // binary was started by.
    CLI::App app{
        "strata: proves, layer by layer, that this machine's CUDA stack works, and how fast.\n"
        "Exit status: 0 all checks passed, 1 a check failed, 2 bad usage or input, 3 strata failed.",
        "strata"};
    app.formatter(std::make_shared<cli::HelpFormatter>());
    app.set_version_flag(
        "--version", [] { return cli::version_text(); }, "Print version and build details");
    app.require_subcommand(0, 1);
    std::map<std::string, std::function<int()>> commands = {
        {"doctor", cli::register_doctor(app, executable)},
        {"env", cli::register_env(app, executable)},
        {"plugins", cli::register_plugins(app, executable)},
        {"worker", cli::register_worker(app)},
        {"arch", cli::register_arch(app)},
        {"frameworks", cli::register_frameworks(app)},
        {"explain", cli::register_explain(app, executable)},
        {"compare", cli::register_compare(app)},
        {"bench", cli::register_bench(app, executable)},
        {"record", cli::register_record(app, executable)},
        {"rollout", cli::register_rollout(app, executable)},
        {"fleet", cli::register_fleet(app)},
    };
    commands["help"] = cli::register_help(app);
    // The answer is only given if it reached standard output: a full disk
    // (`> /dev/full`) or a closed stdout is strata failing to complete, not
    // a silent 0.
    auto delivered = [](int status) {
        std::cout.flush();
        if (std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
        std::cerr << "strata: error: cannot write to standard output: " << std::strerror(errno) << '\n';
        return 3;
    };
    std::vector<const char*> arguments = cli::arguments_with_default_command(argc, argv);
    try {
        app.parse(static_cast<int>(arguments.size()), arguments.data());
    } catch (const CLI::CallForHelp& e) {
        return delivered(app.exit(e));
    } catch (const CLI::CallForAllHelp& e) {
        return delivered(app.exit(e));
    } catch (const CLI::CallForVersion&) {
        std::cout << cli::version_text();
        return delivered(0);
    } catch (const CLI::ParseError& e) {
        std::string message = e.what();
        std::string command = cli::command_named(arguments, commands);
        if (dynamic_cast<const CLI::ExtrasError*>(&e) && command.empty() && arguments.size() > 1 &&
            arguments[1][0] != '-')
            message = std::string("unknown command '") + arguments[1] + "'";
        std::cerr << "strata: error: " << message << " (see strata " << (command.empty() ? "" : command + " ")
                  << "--help)\n";
        return 2;
    }
    bool is_worker = app.got_subcommand("worker");
    if (!is_worker) {
        // A worker's output is the plugin's, read by strata; everything else
        // is read by a person or a tool.
        make_standard_streams_terminal_safe();
        end_children_on_termination_signals();
        adopt_orphans();
    }
    // Whatever a worker or an interpreter left running detached (setsid,
    // double fork) ends with the command, however the command ends.
    struct EndOrphans {
        bool active;
        ~EndOrphans() {
            if (active) end_adopted_orphans();
        }
    } end_orphans{!is_worker};
    try {
        for (CLI::App* sub : app.get_subcommands())
            if (sub->parsed()) return delivered(commands.at(sub->get_name())());
        return delivered(commands.at("doctor")());
    } catch (const UsageError& e) {
        std::cerr << "strata: error: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "strata: internal error: " << e.what() << '\n';
        return 3;
    }
}
