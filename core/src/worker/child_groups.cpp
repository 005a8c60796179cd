#include "worker/child_groups.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <ctime>

namespace strata {

namespace {

// Fixed size and lock-free, so that a signal handler can read it. Far more
// slots than strata ever runs at once (one wave of plugin workers plus the
// Python probes).
constexpr int kSlots = 256;
std::atomic<pid_t> groups[kSlots];

extern "C" void on_termination_signal(int signal_number) {
    kill_child_groups();
    end_adopted_orphans();
    _exit(128 + signal_number);
}

bool registered(pid_t pid) noexcept {
    for (auto& slot : groups)
        if (slot.load() == pid) return true;
    return false;
}

// The parent of `pid` from /proc/PID/stat ("pid (comm) state ppid ..."; the
// name may hold spaces and parentheses, so it is read after the last ')');
// -1 when unknown. open/read/close only: safe in a signal handler.
pid_t parent_of(const char* pid) noexcept {
    char path[64] = "/proc/";
    size_t at = 6;
    for (const char* c = pid; *c && at < sizeof path - 8; ++c) path[at++] = *c;
    for (const char* c = "/stat"; *c; ++c) path[at++] = *c;
    path[at] = '\0';
    int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[1024];
    ssize_t n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    const char* close = nullptr;
    for (const char* c = text; *c; ++c)
        if (*c == ')') close = c;
    if (!close || close[1] != ' ' || !close[2] || close[3] != ' ') return -1;
    pid_t parent = 0;
    for (const char* c = close + 4; *c >= '0' && *c <= '9'; ++c) parent = parent * 10 + (*c - '0');
    return parent;
}

// SIGKILL to each child of this process that no worker's group owns; how
// many there were.
int kill_adopted() noexcept {
    int fd = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return 0;
    const pid_t self = ::getpid();
    int killed = 0;
    alignas(8) char buffer[8192];
    for (;;) {
        long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
        if (n <= 0) break;
        for (long at = 0; at < n;) {
            auto* entry = reinterpret_cast<struct dirent64*>(buffer + at);
            at += entry->d_reclen;
            const char* name = entry->d_name;
            if (name[0] < '1' || name[0] > '9') continue;
            pid_t pid = 0;
            for (const char* c = name; *c >= '0' && *c <= '9'; ++c) pid = pid * 10 + (*c - '0');
            if (pid == self || registered(pid) || parent_of(name) != self) continue;
            ::kill(pid, SIGKILL);
            ++killed;
        }
    }
    ::close(fd);
    return killed;
}

}  // namespace

void adopt_orphans() noexcept {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

void end_adopted_orphans() noexcept {
    // An orphan's own children come to strata when it dies: a few rounds.
    for (int round = 0; round < 16 && kill_adopted() > 0; ++round) {
        // Reaped one by one: each round's orphans are dead or dying.
        for (int wait = 0; wait < 100; ++wait) {
            pid_t reaped = ::waitpid(-1, nullptr, WNOHANG);
            if (reaped > 0) continue;
            if (reaped < 0) break;  // no child left
            struct timespec pause = {0, 1000000};
            ::nanosleep(&pause, nullptr);
        }
    }
}

bool register_child_group(pid_t group) noexcept {
    for (auto& slot : groups) {
        pid_t empty = 0;
        if (slot.compare_exchange_strong(empty, group)) return true;
    }
    return false;
}

void unregister_child_group(pid_t group) noexcept {
    for (auto& slot : groups) {
        pid_t expected = group;
        if (slot.compare_exchange_strong(expected, 0)) return;
    }
}

void kill_child_groups() noexcept {
    for (auto& slot : groups)
        if (pid_t group = slot.load(); group > 0) ::kill(-group, SIGKILL);
}

void end_children_on_termination_signals() {
    struct sigaction action {};
    action.sa_handler = on_termination_signal;
    sigemptyset(&action.sa_mask);
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
        // A signal the caller chose to ignore (nohup) stays ignored.
        struct sigaction previous {};
        if (::sigaction(signal_number, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
        ::sigaction(signal_number, &action, nullptr);
    }
}

bool has_exited(pid_t child) noexcept {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == child;
}

bool die_with_parent(pid_t parent) noexcept {
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return true;  // not fatal: deadlines still apply
    return ::getppid() == parent;
}

}  // namespace strata
