// Which lines of a kernel log are the NVIDIA driver's own records. The log
// also holds text users write at will: a program's name in a segfault line
// ("Xid 79[4242]: segfault at ..."), the OOM killer's victims, a USB
// device's product string, a filesystem's label. Node health drains on what
// it finds here, so it reads a record only where the driver's text starts
// it, after the prefix the kernel, dmesg, /dev/kmsg, journalctl or syslog
// put before it, and only in the driver's exact form.
#pragma once

#include <optional>
#include <string_view>

#include "explain/xid_catalog.h"

namespace strata {

// The text of a kernel record, after its prefixes: "[ 1843.308145] " (dmesg,
// /dev/kmsg as strata reads it, dmesg -T's "[Mon Dec  3 ...]"),
// "Dec 03 10:11:12 HOST kernel: " and "2026-12-03T10:12:00+0000 HOST
// kernel: " (journalctl, syslog; a syslog line may carry dmesg's time too).
// nullopt for a line that is not the first line of a kernel record: another
// program's syslog line, or a continuation line (indented), whose text a
// record's own argument may have started.
std::optional<std::string_view> kernel_record_text(std::string_view line);

// The time a kernel log line carries, as written: "[ 1234.567890]" (dmesg,
// /dev/kmsg), "2026-12-03T10:11:12+0000" (journalctl -o short-iso) or
// "Dec 03 10:11:12" (journalctl, syslog); "" otherwise.
std::string_view kernel_record_time(std::string_view line);

// "NVRM: Xid (PCI:0000:3b:00): 79, pid=..., ..." at the very start of a
// record's text, with a well-formed PCI address and a number of at most
// four digits ended by ',' or the end; nullopt for anything else.
std::optional<XidEvent> parse_driver_xid(std::string_view text);

// "NVRM: The NVIDIA GPU 0000:b3:00.0" at the start of a record's text (a
// newer driver's "fallen off the bus" report, which has no Xid): the GPU's
// address, or nullopt.
std::optional<std::string_view> driver_gpu_report_address(std::string_view text);

}  // namespace strata
