// strata: proves, layer by layer, that a machine's CUDA stack works.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>

#include "cli/commands.h"
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

}  // namespace

}  // namespace strata::cli

int main(int argc, char** argv) {
    using namespace strata;
    std::string executable = cli::own_executable(argv[0]);
    CLI::App app{
        "strata: proves, layer by layer, that this machine's CUDA stack works, and how fast.\n"
        "Exit status: 0 all checks passed, 1 a check failed, 2 bad usage or input, 3 strata failed."};
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
    // The answer is only given if it reached standard output: a full disk
    // (`> /dev/full`) or a closed stdout is strata failing to complete, not
    // a silent 0.
    auto delivered = [](int status) {
        std::cout.flush();
        if (std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
        std::cerr << "strata: error: cannot write to standard output: " << std::strerror(errno) << '\n';
        return 3;
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return delivered(app.exit(e));
    } catch (const CLI::CallForAllHelp& e) {
        return delivered(app.exit(e));
    } catch (const CLI::CallForVersion&) {
        std::cout << cli::version_text();
        return delivered(0);
    } catch (const CLI::ParseError& e) {
        std::string message = e.what();
        if (dynamic_cast<const CLI::ExtrasError*>(&e) && argc > 1 && argv[1][0] != '-' &&
            !commands.count(argv[1]))
            message = std::string("unknown command '") + argv[1] + "'";
        std::cerr << "strata: error: " << message << " (see strata --help)\n";
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
