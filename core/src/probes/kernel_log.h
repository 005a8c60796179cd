// The kernel log, for the NVIDIA driver's Xid events: from a saved file
// (`--kernel-log FILE`: post-mortems and tests), else the live one —
// /dev/kmsg, then `dmesg`, then `journalctl -k -b` — whichever this process
// may read (kernel.dmesg_restrict and containers often forbid all three).
#pragma once

#include <string>
#include <vector>

#include "explain/xid_catalog.h"
#include "model/report.h"
#include "probes/probe_context.h"

namespace strata {

// Only the newest part of a log is read: an Xid that matters is recent.
inline constexpr size_t kMaxKernelLogBytes = 32u << 20;

struct KernelLog {
    std::string source;  // "--kernel-log FILE", "/dev/kmsg", "dmesg", "journalctl -k -b"
    std::vector<std::string> lines;
    std::string problem;  // why no log could be read (source then empty)
};

// `file` empty: the live log (none on a fixture root).
KernelLog read_kernel_log(const ProbeContext& context, const std::string& file);

struct LoggedXid {
    XidEvent event;
    std::string time;   // as the log wrote it: "[ 1234.567890]", "2026-12-03T10:11:12+0000"; may be empty
    size_t line_index;  // in KernelLog::lines
};

// Every Xid line of the log, oldest first.
std::vector<LoggedXid> find_xid_events(const KernelLog& log);

// Facts: host.kernel_log.source (or .problem) and host.kernel_log.xid_events,
// [{"xid", "pci", "time"}, ...], oldest first (at most the newest 1,000).
void probe_kernel_log(const ProbeContext& context, const std::string& file, Report& report);

}  // namespace strata
