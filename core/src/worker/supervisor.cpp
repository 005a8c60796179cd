#include "worker/supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <stdexcept>

#include "worker/child_groups.h"
#include "worker/parent_shield.h"

extern char** environ;

namespace strata {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr int child_protocol_fd = 3;
constexpr size_t output_tail_lines = 10;
constexpr size_t output_line_limit = 400;
// What one task may send before it is stopped: far above any real plugin
// (the largest probe reports a few hundred facts) and far below what would
// hurt the node.
constexpr size_t max_protocol_bytes = 64 << 20;
constexpr size_t max_records = 100'000;

struct Pipe {
    int read = -1, write = -1;
    bool open() {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) return false;
        read = fds[0];
        write = fds[1];
        return true;
    }
};

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

// Keeps the last few lines of the child's stdout/stderr.
class OutputTail {
public:
    void feed(std::string_view data) {
        for (char c : data) {
            if (c == '\n') {
                flush();
            } else if (partial_.size() < output_line_limit) {
                partial_ += c;
            }
        }
    }
    std::vector<std::string> finish() {
        flush();
        return {lines_.begin(), lines_.end()};
    }

private:
    void flush() {
        if (!partial_.empty()) lines_.push_back(std::move(partial_));
        partial_.clear();
        while (lines_.size() > output_tail_lines) lines_.pop_front();
    }
    std::string partial_;
    std::deque<std::string> lines_;
};

pid_t spawn(const WorkerRequest& request, int protocol_write, int output_write) {
    std::vector<std::string> args = {request.strata_executable, "worker", "--plugin",
                                     request.plugin_path,       "--task", request.task};
    std::vector<std::string> env;
    for (char** entry = environ; entry && *entry; ++entry) {
        std::string_view text(*entry);
        bool replaced = false;
        for (const std::string& extra : request.environment) {
            size_t eq = extra.find('=');
            if (text.substr(0, eq + 1) == std::string_view(extra).substr(0, eq + 1)) replaced = true;
        }
        if (!replaced && text.rfind("STRATA_WORKER_FD=", 0) != 0) env.emplace_back(text);
    }
    env.insert(env.end(), request.environment.begin(), request.environment.end());
    env.push_back("STRATA_WORKER_FD=" + std::to_string(child_protocol_fd));
    // Build argv/envp before fork: only async-signal-safe calls after it.
    std::vector<char*> argv, envp;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    for (std::string& entry : env) envp.push_back(entry.data());
    envp.push_back(nullptr);

    const pid_t parent = ::getpid();
    const ParentShield shield(parent, ::getpgrp());

    pid_t pid = ::fork();
    if (pid != 0) return pid;
    // Child. Its own process group, so a deadline kills anything it started;
    // it dies with strata, and cannot signal it.
    ::setpgid(0, 0);
    if (!die_with_parent(parent)) _exit(127);
    shield.install();
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    ::dup2(output_write, STDOUT_FILENO);
    ::dup2(output_write, STDERR_FILENO);
    ::dup2(protocol_write, child_protocol_fd);  // dup2 clears O_CLOEXEC on the copy
    ::execve(argv[0], argv.data(), envp.data());
    _exit(127);
}

milliseconds task_deadline(const WorkerRequest& request, const PluginRecord& plugin) {
    if (request.deadline_override) return *request.deadline_override;
    uint32_t declared = request.task == "selftest" ? plugin.selftest_timeout_s
                        : request.task == "probe"  ? plugin.probe_timeout_s
                                                   : 0;
    return declared > 0 ? std::min(milliseconds(declared * 1000LL), request.max_declared_deadline)
                        : request.default_task_deadline;
}

}  // namespace

std::string describe_signal(int signal_number) {
    const char* abbrev = sigabbrev_np(signal_number);
    const char* text = strsignal(signal_number);
    std::string out = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal_number);
    if (text) out += std::string(" (") + text + ")";
    return out;
}

TaskOutcome run_worker_task(const WorkerRequest& request) {
    TaskOutcome outcome;
    Pipe protocol_pipe, output_pipe;
    if (!protocol_pipe.open() || !output_pipe.open()) {
        int saved = errno;
        for (int* fd : {&protocol_pipe.read, &protocol_pipe.write, &output_pipe.read, &output_pipe.write})
            close_fd(*fd);
        errno = saved;
        // strata itself is out of resources (descriptors): that is strata
        // failing (exit 3), not a plugin's fault.
        throw std::runtime_error(std::string("cannot create pipes for a worker: ") + std::strerror(errno));
    }
    auto started = Clock::now();
    pid_t pid = spawn(request, protocol_pipe.write, output_pipe.write);
    int spawn_errno = errno;
    // Also set in the child; doing it here too closes the window in which a
    // deadline could signal a group that does not exist yet.
    if (pid > 0) {
        ::setpgid(pid, pid);
        register_child_group(pid);
    }
    close_fd(protocol_pipe.write);
    close_fd(output_pipe.write);
    if (pid < 0) {
        close_fd(protocol_pipe.read);
        close_fd(output_pipe.read);
        throw std::runtime_error(std::string("cannot fork a worker: ") + std::strerror(spawn_errno));
    }

    auto deadline = started + request.load_deadline;
    milliseconds limit = request.load_deadline;  // the one in force
    std::optional<Clock::time_point> kill_at;    // set once SIGTERM was sent
    bool timed_out = false, killed = false, done = false;
    std::optional<int> done_result;
    std::string protocol_error, buffer;
    size_t received_bytes = 0, records = 0;
    OutputTail tail;
    int status = 0;
    bool reaped = false;

    auto handle_line = [&](std::string_view line) {
        if (!protocol_error.empty() || line.empty()) return;
        std::string why;
        auto message = protocol::decode(line, why);
        if (!message) {
            std::string excerpt(line.substr(0, 80));
            protocol_error = "unparsable output from worker (" + why + "): '" + excerpt + "'";
            return;
        }
        if (done) {
            protocol_error = "worker wrote after reporting completion";
            return;
        }
        if (++records > max_records) {
            protocol_error = "worker sent more than " + std::to_string(max_records) + " records; stopped it";
            return;
        }
        std::visit(
            [&](auto&& m) {
                using T = std::decay_t<decltype(m)>;
                if constexpr (std::is_same_v<T, protocol::Hello>) {
                    outcome.plugin = m.plugin;
                    limit = task_deadline(request, m.plugin);
                    deadline = Clock::now() + limit;
                } else if constexpr (std::is_same_v<T, Fact>) {
                    outcome.facts.push_back(std::move(m));
                } else if constexpr (std::is_same_v<T, Check>) {
                    outcome.checks.push_back(std::move(m));
                } else if constexpr (std::is_same_v<T, Measurement>) {
                    outcome.measurements.push_back(std::move(m));
                } else if constexpr (std::is_same_v<T, protocol::LogLine>) {
                    outcome.logs.push_back(std::move(m));
                } else if constexpr (std::is_same_v<T, protocol::LoadError>) {
                    outcome.load_error = std::move(m);
                } else if constexpr (std::is_same_v<T, protocol::Done>) {
                    done = true;
                    done_result = m.result;
                }
            },
            *message);
    };

    pollfd fds[2] = {{protocol_pipe.read, POLLIN, 0}, {output_pipe.read, POLLIN, 0}};
    while (fds[0].fd >= 0 || fds[1].fd >= 0 || !reaped) {
        auto now = Clock::now();
        if (!kill_at && now >= deadline) {
            timed_out = true;
            ::kill(-pid, SIGTERM);
            kill_at = now + request.grace;
        } else if (kill_at && !killed && now >= *kill_at) {
            ::kill(-pid, SIGKILL);
            killed = true;
        }
        if (!reaped && has_exited(pid)) reaped = true;  // not reaped yet: see below
        if (reaped && killed) break;                    // grandchildren may hold the pipes; stop waiting

        auto next = kill_at ? *kill_at : deadline;
        int wait_ms = static_cast<int>(
            std::clamp<long long>(std::chrono::duration_cast<milliseconds>(next - now).count(), 0, 50));
        if (fds[0].fd < 0 && fds[1].fd < 0) {
            ::usleep(static_cast<useconds_t>(wait_ms) * 1000);
            continue;
        }
        int ready = ::poll(fds, 2, wait_ms);
        if (ready < 0 && errno != EINTR) break;
        // The worker is gone and nothing more arrives: a process it left
        // behind may hold the pipes open, but the task is over.
        if (ready == 0 && reaped) break;
        char chunk[65536];
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = ::read(fds[i].fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                close_fd(fds[i].fd);
                continue;
            }
            if (i == 1) {
                tail.feed(std::string_view(chunk, static_cast<size_t>(n)));
                continue;
            }
            received_bytes += static_cast<size_t>(n);
            if (received_bytes > max_protocol_bytes && protocol_error.empty())
                protocol_error =
                    "worker sent more than " + std::to_string(max_protocol_bytes >> 20) + " MiB; stopped it";
            if (!protocol_error.empty()) {
                // Nothing more it sends is read: stop it now rather than
                // buffering a flood until its deadline.
                if (!killed) ::kill(-pid, SIGKILL);
                killed = true;
                buffer.clear();
                continue;
            }
            buffer.append(chunk, static_cast<size_t>(n));
            size_t start = 0, newline;
            while ((newline = buffer.find('\n', start)) != std::string::npos) {
                handle_line(std::string_view(buffer).substr(start, newline - start));
                start = newline + 1;
            }
            buffer.erase(0, start);
            if (buffer.size() > protocol::max_line_bytes && protocol_error.empty())
                protocol_error =
                    "worker wrote a line longer than " + std::to_string(protocol::max_line_bytes) + " bytes";
        }
    }
    // Whatever the worker left running in its group goes with it. The worker
    // is reaped only afterwards: while it is a zombie its pid, and so its
    // group id, cannot be given to another process.
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    unregister_child_group(pid);
    if (!buffer.empty()) handle_line(buffer);  // a last line without its newline
    close_fd(fds[0].fd);
    close_fd(fds[1].fd);
    outcome.output_tail = tail.finish();
    outcome.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - started);

    std::string phase = outcome.plugin ? request.task : "loading the plugin";
    if (timed_out) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f", static_cast<double>(limit.count()) / 1000.0);
        outcome.end = TaskEnd::timeout;
        outcome.message = phase + " did not finish within " + seconds + " s; sent SIGTERM" +
                          (killed ? ", then SIGKILL after the grace period" : "");
    } else if (killed && !protocol_error.empty()) {  // strata stopped it: not a crash
        outcome.end = TaskEnd::error;
        outcome.message = protocol_error;
    } else if (WIFSIGNALED(status)) {
        outcome.end = TaskEnd::crashed;
        outcome.message = "worker crashed with " + describe_signal(WTERMSIG(status)) + " while " +
                          (outcome.plugin ? "running " + request.task : phase);
    } else if (!protocol_error.empty()) {
        outcome.end = TaskEnd::error;
        outcome.message = protocol_error;
    } else if (outcome.load_error) {
        outcome.end = TaskEnd::load_failed;
        outcome.message = outcome.load_error->message;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !outcome.plugin) {
        outcome.end = TaskEnd::error;
        outcome.message = "could not start the worker " + request.strata_executable;
    } else if (!done) {
        outcome.end = TaskEnd::error;
        outcome.message = WIFEXITED(status) && WEXITSTATUS(status) != 0
                              ? "worker exited with status " + std::to_string(WEXITSTATUS(status)) +
                                    " before finishing " + request.task
                              : "worker ended without reporting completion of " + request.task;
    } else if (done_result && *done_result != 0) {
        outcome.end = TaskEnd::task_failed;
        outcome.message = "the plugin reported that its " + request.task + " could not complete";
    } else {
        outcome.end = TaskEnd::completed;
    }
    return outcome;
}

}  // namespace strata
