// A kernel log, as dmesg, /dev/kmsg, journalctl or syslog write it, with
// text users control inside its records: which lines are the NVIDIA
// driver's own Xid records (node health drains on them).
#include <cstdint>
#include <string>

#include "probes/kernel_log.h"
#include "probes/kernel_records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    strata::KernelLog log;
    for (size_t start = 0; start <= text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        log.lines.emplace_back(text, start, end - start);
        start = end + 1;
    }
    for (const strata::LoggedXid& found : strata::find_xid_events(log)) {
        // An event is only ever read from a line whose record text is the driver's.
        if (found.event.number < 0 || found.event.number > 9999) __builtin_trap();
        auto record = strata::kernel_record_text(log.lines.at(found.line_index));
        if (!record || record->substr(0, 6) != "NVRM: ") __builtin_trap();
    }
    return 0;
}
