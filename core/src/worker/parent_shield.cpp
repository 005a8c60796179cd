#include "worker/parent_shield.h"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace strata {

namespace {

#if defined(__x86_64__)
constexpr uint32_t kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr uint32_t kAuditArch = AUDIT_ARCH_AARCH64;
#else
constexpr uint32_t kAuditArch = 0;  // unknown: no filter
#endif

constexpr uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr uint32_t kRefuse = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);

sock_filter statement(uint16_t code, uint32_t k) {
    return BPF_STMT(code, k);
}
sock_filter jump(uint16_t code, uint32_t k, uint8_t if_true, uint8_t if_false) {
    return BPF_JUMP(code, k, if_true, if_false);
}

// The low 32 bits of argument `index`: pid_t is an int, and the upper half of
// the register is not defined for it.
constexpr uint32_t low_word_of_argument(int index) {
    return static_cast<uint32_t>(offsetof(seccomp_data, args) + index * sizeof(uint64_t)) +
           (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0 : 4);
}

}  // namespace

ParentShield::ParentShield(pid_t parent, pid_t parent_group) {
    if (kAuditArch == 0) return;
    const uint32_t parent_id = static_cast<uint32_t>(parent);
    const uint32_t parent_group_target = static_cast<uint32_t>(-parent_group);
    const uint32_t everyone = static_cast<uint32_t>(-1);
    auto& p = program_;
    p.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0));
    p.push_back(statement(BPF_RET | BPF_K, kAllow));
    p.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));

    // Each guarded call: compare its pid argument against what it must not
    // name. Blocks are laid out in order, so a mismatch falls through to the
    // next syscall test.
    auto guard_pid_argument = [&](long syscall_number, std::vector<uint32_t> forbidden, int argument = 0) {
        const uint8_t block = static_cast<uint8_t>(2 + forbidden.size() + 2);
        p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(syscall_number), 0, block));
        p.push_back(statement(BPF_LD | BPF_W | BPF_ABS, low_word_of_argument(argument)));
        for (size_t i = 0; i < forbidden.size(); ++i)
            p.push_back(
                jump(BPF_JMP | BPF_JEQ | BPF_K, forbidden[i], static_cast<uint8_t>(forbidden.size() - i), 0));
        p.push_back(statement(BPF_RET | BPF_K, kAllow));
        p.push_back(statement(BPF_RET | BPF_K, kRefuse));
        // Reload the syscall number for the next test.
        p.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
    };
    auto refuse = [&](long syscall_number) {
        p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(syscall_number), 0, 1));
        p.push_back(statement(BPF_RET | BPF_K, kRefuse));
    };
    guard_pid_argument(SYS_kill, {parent_id, parent_group_target, everyone});
    guard_pid_argument(SYS_tgkill, {parent_id});
    guard_pid_argument(SYS_rt_sigqueueinfo, {parent_id});
    guard_pid_argument(SYS_rt_tgsigqueueinfo, {parent_id});
#ifdef SYS_pidfd_open
    guard_pid_argument(SYS_pidfd_open, {parent_id});
#endif
    // ptrace(request, pid): not strata. A process may still trace its own
    // threads (LeakSanitizer does, at exit).
    guard_pid_argument(SYS_ptrace, {parent_id}, 1);
    guard_pid_argument(SYS_process_vm_writev, {parent_id});
    refuse(SYS_tkill);  // names a thread id alone; glibc uses tgkill
    p.push_back(statement(BPF_RET | BPF_K, kAllow));
}

bool ParentShield::install() const noexcept {
    if (program_.empty()) return false;
    sock_fprog fprog{static_cast<unsigned short>(program_.size()), const_cast<sock_filter*>(program_.data())};
    if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) == 0) return true;
    // Without CAP_SYS_ADMIN the kernel asks for no_new_privs first.
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    return ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) == 0;
}

}  // namespace strata
