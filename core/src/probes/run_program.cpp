#include "probes/run_program.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "worker/child_groups.h"

namespace strata {

namespace {

using Clock = std::chrono::steady_clock;

std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

}  // namespace

ProgramResult run_program(const std::vector<std::string>& argv, std::chrono::milliseconds deadline,
                          size_t output_limit, const std::vector<std::string>& environment) {
    ProgramResult result;
    if (argv.empty()) {
        result.problem = "no program given";
        return result;
    }
    int out_pipe[2], err_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
        result.problem = std::string("cannot create a pipe: ") + std::strerror(errno);
        return result;
    }
    if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
        ::close(out_pipe[0]);
        ::close(out_pipe[1]);
        result.problem = std::string("cannot create a pipe: ") + std::strerror(errno);
        return result;
    }
    std::vector<std::string> args = argv;
    std::vector<char*> raw;
    for (std::string& arg : args) raw.push_back(arg.data());
    raw.push_back(nullptr);
    // The child's environment, built before fork (nothing may allocate after it).
    std::vector<std::string> variables = environment;
    for (char** entry = environ; *entry; ++entry) {
        std::string_view text(*entry);
        std::string_view name = text.substr(0, text.find('='));
        bool replaced = false;
        for (const std::string& given : environment)
            replaced |= given.size() > name.size() && given.compare(0, name.size(), name) == 0 &&
                        given[name.size()] == '=';
        if (!replaced) variables.emplace_back(text);
    }
    std::vector<char*> envp;
    for (std::string& variable : variables) envp.push_back(variable.data());
    envp.push_back(nullptr);
    const pid_t parent = ::getpid();
    pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);  // its own group: a deadline kills whatever it started
        if (!die_with_parent(parent)) _exit(127);
        int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
        ::dup2(out_pipe[1], STDOUT_FILENO);
        ::dup2(err_pipe[1], STDERR_FILENO);
        ::execvpe(raw[0], raw.data(), envp.data());
        _exit(127);
    }
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    if (pid < 0) {
        ::close(out_pipe[0]);
        ::close(err_pipe[0]);
        result.problem = std::string("cannot fork: ") + std::strerror(errno);
        return result;
    }
    ::setpgid(pid, pid);
    register_child_group(pid);
    std::string errors;
    bool timed_out = false, truncated = false;
    auto ends = Clock::now() + deadline;
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    int open_streams = 2;
    char buffer[65536];
    while (open_streams > 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(ends - Clock::now()).count();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        int ready = ::poll(fds, 2, static_cast<int>(left));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        for (pollfd& fd : fds) {
            if (fd.fd < 0 || !(fd.revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t got = ::read(fd.fd, buffer, sizeof buffer);
            if (got <= 0) {
                ::close(fd.fd);
                fd.fd = -1;
                --open_streams;
                continue;
            }
            bool is_output = fd.fd == out_pipe[0];
            std::string& sink = is_output ? result.output : errors;
            size_t cap = is_output ? output_limit : 4096;
            size_t room = sink.size() < cap ? cap - sink.size() : 0;
            sink.append(buffer, std::min(room, static_cast<size_t>(got)));
            if (is_output && static_cast<size_t>(got) > room) truncated = true;
        }
        if (truncated) break;
    }
    for (pollfd& fd : fds)
        if (fd.fd >= 0) ::close(fd.fd);
    // A program that closed its output can still be running: it too has
    // until the deadline to exit.
    int status = 0;
    while (!timed_out && !truncated) {
        // Exited, but not reaped: its group is killed below while the
        // group id cannot have been reused.
        if (has_exited(pid)) break;
        if (Clock::now() >= ends) {
            timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    // Whatever it started in its group goes with it.
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    unregister_child_group(pid);
    if (!timed_out && !truncated && WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
    auto seconds = std::chrono::duration_cast<std::chrono::seconds>(deadline).count();
    if (timed_out) {
        result.problem = "timed out after " + std::to_string(seconds) + " s";
    } else if (truncated) {
        result.problem = "printed more than " + std::to_string(output_limit) + " bytes";
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && result.output.empty()) {
        result.problem = "cannot be run";
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        result.problem = "exited with status " + std::to_string(WEXITSTATUS(status)) +
                         (errors.empty() ? "" : ": " + first_line(errors));
    } else if (WIFSIGNALED(status)) {
        result.problem = "was killed by signal " + std::to_string(WTERMSIG(status));
    } else {
        result.ok = true;
    }
    return result;
}

}  // namespace strata
