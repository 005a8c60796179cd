#include "probes/kernel_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "model/usage_error.h"
#include "probes/kernel_records.h"
#include "probes/probes.h"
#include "probes/run_program.h"

namespace strata {

namespace {

constexpr size_t kMaxXidFacts = 1000;

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.emplace_back(text, start, end - start);
        start = end + 1;
    }
    return lines;
}

// The newest kMaxKernelLogBytes, cut at a line start.
std::string newest(std::string text) {
    if (text.size() <= kMaxKernelLogBytes) return text;
    size_t cut = text.find('\n', text.size() - kMaxKernelLogBytes);
    return cut == std::string::npos ? std::string() : text.substr(cut + 1);
}

// /dev/kmsg: one record per read(), "prio,seq,usec,flags;message"; EAGAIN
// at the end of the buffer, EPIPE when a record was overwritten meanwhile.
bool read_kmsg(std::vector<std::string>& lines, std::string& problem) {
    int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        problem = std::string("/dev/kmsg: ") + std::strerror(errno);
        return false;
    }
    std::vector<std::string> records;
    size_t bytes = 0;
    char buffer[8192];
    for (;;) {
        ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
        if (n < 0 && errno == EPIPE) continue;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n < 0 && errno != EAGAIN) problem = std::string("/dev/kmsg: ") + std::strerror(errno);
            break;
        }
        std::string record(buffer, static_cast<size_t>(n));
        size_t semicolon = record.find(';');
        if (semicolon == std::string::npos) continue;
        std::string header = record.substr(0, semicolon), message = record.substr(semicolon + 1);
        message = message.substr(0, message.find('\n'));  // continuation lines are key=value metadata
        // header: prio,seq,usec,flags
        size_t first = header.find(','),
               second = first == std::string::npos ? first : header.find(',', first + 1);
        std::string time;
        if (second != std::string::npos) {
            std::string usec = header.substr(second + 1, header.find(',', second + 1) - second - 1);
            if (!usec.empty() && usec.find_first_not_of("0123456789") == std::string::npos &&
                usec.size() < 19) {
                long long us = std::stoll(usec);
                char text[40];
                std::snprintf(text, sizeof text, "[%lld.%06lld] ", us / 1000000, us % 1000000);
                time = text;
            }
        }
        bytes += message.size();
        records.push_back(time + message);
        while (bytes > kMaxKernelLogBytes && !records.empty()) {
            bytes -= records.front().size();
            records.erase(records.begin());
        }
    }
    ::close(fd);
    if (records.empty() && !problem.empty()) return false;
    lines = std::move(records);
    return true;
}

// Whether a tool's output shows the kernel's log: a timestamped kernel record.
bool holds_kernel_record(const std::vector<std::string>& lines) {
    for (const std::string& line : lines)
        if (!kernel_record_time(line).empty() && kernel_record_text(line)) return true;
    return false;
}

// The newest kMaxKernelLogBytes of a saved log, from its first whole line.
std::string read_tail(const std::string& path) {
    std::error_code ec;
    std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) throw UsageError("--kernel-log " + path + ": no such file");
    if (!std::filesystem::is_regular_file(status))
        throw UsageError("--kernel-log " + path + ": not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError("--kernel-log " + path + ": cannot be read");
    in.seekg(0, std::ios::end);
    std::streamoff size = in.tellg();
    std::streamoff start = size > static_cast<std::streamoff>(kMaxKernelLogBytes)
                               ? size - static_cast<std::streamoff>(kMaxKernelLogBytes)
                               : 0;
    in.seekg(start);
    std::string text(static_cast<size_t>(size - start), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    if (start > 0) {
        size_t cut = text.find('\n');
        text = cut == std::string::npos ? std::string() : text.substr(cut + 1);
    }
    return text;
}

}  // namespace

KernelLog read_kernel_log(const ProbeContext& context, const std::string& file) {
    KernelLog log;
    if (!file.empty()) {
        // The live log named as a file (--kernel-log /dev/kmsg, or a link to
        // it): read as records, as below. Any other device or FIFO is refused
        // by read_tail: it could block or never end.
        std::error_code ec;
        if (std::filesystem::canonical(file, ec) == "/dev/kmsg" && !ec) {
            std::string problem;
            log.source = "--kernel-log " + file;
            if (!read_kmsg(log.lines, problem)) log.problem = problem;
            return log;
        }
        // A saved log is the user's input: a missing one is bad usage.
        std::string text = read_tail(file);
        log.source = "--kernel-log " + file;
        log.lines = split(text);
        return log;
    }
    if (!context.is_live()) {
        log.problem = "no live kernel log on a fixture root";
        return log;
    }
    std::string kmsg_problem;
    if (read_kmsg(log.lines, kmsg_problem)) {
        log.source = "/dev/kmsg";
        return log;
    }
    // A tool that ran but showed no kernel record did not read the log: a
    // user outside the journal's groups gets "-- No entries --" or a hint,
    // exit 0, and an empty log must not read as "no Xid event".
    ProgramResult dmesg = run_program({"dmesg"}, std::chrono::seconds(10), kMaxKernelLogBytes * 2);
    std::vector<std::string> lines = dmesg.ok ? split(newest(dmesg.output)) : std::vector<std::string>{};
    if (dmesg.ok && holds_kernel_record(lines)) {
        log.source = "dmesg";
        log.lines = std::move(lines);
        return log;
    }
    ProgramResult journal = run_program({"journalctl", "-k", "-b", "--no-pager", "-o", "short-iso"},
                                        std::chrono::seconds(10), kMaxKernelLogBytes * 2);
    lines = journal.ok ? split(newest(journal.output)) : std::vector<std::string>{};
    if (journal.ok && holds_kernel_record(lines)) {
        log.source = "journalctl -k -b";
        log.lines = std::move(lines);
        return log;
    }
    log.problem = kmsg_problem + "; dmesg: " +
                  (dmesg.ok                ? "no kernel record shown"
                   : dmesg.problem.empty() ? "failed"
                                           : dmesg.problem) +
                  "; journalctl: " +
                  (journal.ok || journal.problem.empty() ? "no kernel record shown" : journal.problem);
    return log;
}

namespace {

// Newer drivers report a GPU that fell off the bus over several lines and
// without an Xid: "NVRM: The NVIDIA GPU 0000:b3:00.0 / (PCI ID: 10de:26b5)
// installed in this system has / fallen off the bus and is not responding",
// the rest as continuation lines (or, from /dev/kmsg, the next records).
std::optional<XidEvent> fallen_off_without_xid(const std::vector<std::string>& lines, size_t at,
                                               std::string_view text) {
    auto address = driver_gpu_report_address(text);
    if (!address) return std::nullopt;
    for (size_t next = at; next < lines.size() && next <= at + 3; ++next)
        if (lines[next].find("fallen off the bus") != std::string::npos) {
            XidEvent event;
            event.number = 79;
            event.pci = std::string(*address);
            event.info = find_xid(79);
            return event;
        }
    return std::nullopt;
}

}  // namespace

std::vector<LoggedXid> find_xid_events(const KernelLog& log) {
    std::vector<LoggedXid> out;
    for (size_t i = 0; i < log.lines.size(); ++i) {
        const std::string& line = log.lines[i];
        if (line.find("NVRM: ") == std::string::npos)
            continue;  // the fast path: most lines are not the driver's
        // Only the driver's own records: text users control appears inside
        // other records (a program named "Xid 79" that segfaults), never at
        // the start of one in the driver's exact form.
        auto text = kernel_record_text(line);
        if (!text) continue;
        std::optional<XidEvent> event = parse_driver_xid(*text);
        if (!event) event = fallen_off_without_xid(log.lines, i, *text);
        if (!event) continue;
        out.push_back({*event, std::string(kernel_record_time(line)), i});
    }
    return out;
}

void probe_kernel_log(const ProbeContext& context, const std::string& file, Report& report) {
    KernelLog log = read_kernel_log(context, file);
    if (log.source.empty()) {
        add_fact(report, Layer::host, "host.kernel_log.problem", log.problem, "kernel log");
        return;
    }
    add_fact(report, Layer::host, "host.kernel_log.source", log.source, "kernel log");
    std::vector<LoggedXid> events = find_xid_events(log);
    Json facts = Json::array();
    size_t first = events.size() > kMaxXidFacts ? events.size() - kMaxXidFacts : 0;
    for (size_t i = first; i < events.size(); ++i)
        facts.push_back(
            {{"xid", events[i].event.number}, {"pci", events[i].event.pci}, {"time", events[i].time}});
    add_fact(report, Layer::host, "host.kernel_log.xid_events", facts, log.source);
}

}  // namespace strata
