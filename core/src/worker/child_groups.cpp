#include "worker/child_groups.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

namespace strata {

namespace {

// Fixed size and lock-free, so that a signal handler can read it. Far more
// slots than strata ever runs at once (one wave of plugin workers plus the
// Python probes).
constexpr int kSlots = 256;
std::atomic<pid_t> groups[kSlots];

extern "C" void on_termination_signal(int signal_number) {
    kill_child_groups();
    _exit(128 + signal_number);
}

}  // namespace

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
