// The process groups strata has started (plugin workers, benchmark runners,
// Python interpreters). When strata is told to stop (SIGINT, SIGTERM,
// SIGHUP) it ends every one of them before it exits, so nothing it started
// outlives it reparented to PID 1. Everything here is async-signal-safe.
#pragma once

#include <sys/types.h>

namespace strata {

// Records a child that leads its own process group; false when the table is
// full (the child still runs, under its own deadline).
bool register_child_group(pid_t group) noexcept;
void unregister_child_group(pid_t group) noexcept;

// SIGKILL to every registered group.
void kill_child_groups() noexcept;

// Installs handlers for SIGINT, SIGTERM and SIGHUP that kill every
// registered group and exit with 128 + the signal's number.
void end_children_on_termination_signals();

// Whether the child has exited, without reaping it (waitid WNOWAIT): while it
// is a zombie its pid, and so its process-group id, cannot be reused, so its
// group can still be killed safely.
bool has_exited(pid_t child) noexcept;

// In a freshly forked child, before exec: die with the parent (or with the
// thread that forked it) instead of living on as an orphan. Returns false when
// the parent was already gone.
bool die_with_parent(pid_t parent) noexcept;

}  // namespace strata
