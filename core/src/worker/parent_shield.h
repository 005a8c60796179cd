// Keeps a worker from signalling strata. A plugin runs with strata's
// credentials (often root), so nothing in the permission model stops it from
// `kill(getppid(), SIGKILL)`; a seccomp filter, installed in the forked child
// before exec and inherited by everything it starts, refuses with EPERM any
// signal aimed at strata's process, at strata's process group or at every
// process (-1), and ptrace or cross-process memory writes aimed at strata.
// Signals among the worker's own processes are untouched. It is a guard
// against a plugin (or a library it loads) killing strata, not a sandbox: a
// plugin runs with strata's credentials, which is why only trusted plugin
// files are loaded at all (plugin_trust.h).
#pragma once

#include <linux/filter.h>
#include <sys/types.h>

#include <vector>

namespace strata {

class ParentShield {
public:
    // Built in the parent, before fork: the child may only make syscalls.
    ParentShield(pid_t parent, pid_t parent_group);
    // In the child; false where the kernel or a container refuses seccomp
    // filters (the worker then runs unshielded).
    bool install() const noexcept;

private:
    std::vector<sock_filter> program_;
};

}  // namespace strata
