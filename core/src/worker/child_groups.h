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
// registered group and every adopted orphan, and exit with 128 + the
// signal's number.
void end_children_on_termination_signals();

// Makes strata the subreaper of everything it starts: a descendant that
// leaves its process group and is orphaned (a plugin's daemon that calls
// setsid and double-forks, a Python grandchild) is reparented to strata, not
// to PID 1, and so can still be ended. Process groups alone miss those.
void adopt_orphans() noexcept;

// SIGKILL to every child strata has that is not a registered group's leader
// (the orphans it adopted), and to what they leave in turn, then reaps them.
// Called when no worker runs: at the end of a command, and on termination.
void end_adopted_orphans() noexcept;

// Whether the child has exited, without reaping it (waitid WNOWAIT): while it
// is a zombie its pid, and so its process-group id, cannot be reused, so its
// group can still be killed safely.
bool has_exited(pid_t child) noexcept;

// In a freshly forked child, before exec: die with the parent (or with the
// thread that forked it) instead of living on as an orphan. Returns false when
// the parent was already gone.
bool die_with_parent(pid_t parent) noexcept;

}  // namespace strata
