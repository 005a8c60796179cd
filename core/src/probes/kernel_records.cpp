#include "probes/kernel_records.h"

#include <cctype>

namespace strata {

namespace {

bool digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool hex(char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

// The length of a run of `what` at `at`, at most `limit` long.
template <typename Predicate>
size_t run_of(std::string_view text, size_t at, size_t limit, Predicate what) {
    size_t n = 0;
    while (at + n < text.size() && n < limit && what(text[at + n])) ++n;
    return n;
}

// journalctl -o short-iso / RFC 3339: "2026-12-03T10:12:00+0000" up to the space.
bool iso_time_at_start(std::string_view line) {
    return line.size() >= 19 && digit(line[0]) && digit(line[3]) && line[4] == '-' && line[7] == '-' &&
           line[10] == 'T' && line[13] == ':';
}

// journalctl -o short / syslog: "Dec 03 10:11:12" or "Dec  3 10:11:12".
bool syslog_time_at_start(std::string_view line) {
    return line.size() >= 15 && std::isupper(static_cast<unsigned char>(line[0])) &&
           std::islower(static_cast<unsigned char>(line[1])) && line[3] == ' ' && line[6] == ' ' &&
           line[9] == ':' && line[12] == ':';
}

// "0000:3b:00", "00000000:3B:00.0", "3b:00.0": the length, or 0.
size_t pci_address_length(std::string_view text) {
    size_t first = run_of(text, 0, 8, hex);
    if (first == 0 || first >= text.size() || text[first] != ':') return 0;
    size_t at = first + 1;
    if (run_of(text, at, 2, hex) != 2) return 0;
    at += 2;
    // With a domain (4 to 8 digits), a device follows the bus; without one
    // (2 digits), what was read is bus:device already.
    if (first != 2) {
        if (first < 4 || at >= text.size() || text[at] != ':' || run_of(text, at + 1, 2, hex) != 2) return 0;
        at += 3;
    }
    if (at + 1 < text.size() && text[at] == '.' && hex(text[at + 1])) at += 2;
    return at;
}

}  // namespace

std::string_view kernel_record_time(std::string_view line) {
    size_t start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) return {};
    if (line[start] == '[') {
        size_t close = line.find(']', start);
        return close != std::string_view::npos && close - start < 40 ? line.substr(start, close - start + 1)
                                                                     : std::string_view{};
    }
    if (iso_time_at_start(line)) return line.substr(0, line.find(' '));
    if (syslog_time_at_start(line)) return line.substr(0, 15);
    return {};
}

std::optional<std::string_view> kernel_record_text(std::string_view line) {
    std::string_view rest = line;
    if (iso_time_at_start(rest) || syslog_time_at_start(rest)) {
        // TIME HOST kernel: TEXT. Another identifier is another program.
        size_t time_end = iso_time_at_start(rest) ? rest.find(' ') : 15;
        if (time_end == std::string_view::npos) return std::nullopt;
        size_t host = rest.find_first_not_of(' ', time_end);
        if (host == std::string_view::npos) return std::nullopt;
        size_t host_end = rest.find(' ', host);
        if (host_end == std::string_view::npos) return std::nullopt;
        rest = rest.substr(host_end + 1);
        if (!starts_with(rest, "kernel: ")) return std::nullopt;
        rest.remove_prefix(8);
    }
    if (starts_with(rest, "[")) {
        size_t close = rest.find(']');
        if (close == std::string_view::npos || close > 40) return std::nullopt;
        rest.remove_prefix(close + 1);
        if (!starts_with(rest, " ")) return std::nullopt;
        rest.remove_prefix(1);
    }
    if (rest.empty() || rest[0] == ' ' || rest[0] == '\t') return std::nullopt;
    return rest;
}

std::optional<XidEvent> parse_driver_xid(std::string_view text) {
    constexpr std::string_view kHead = "NVRM: Xid (PCI:";
    if (!starts_with(text, kHead)) return std::nullopt;
    size_t at = kHead.size();
    size_t address = pci_address_length(text.substr(at));
    if (address == 0) return std::nullopt;
    XidEvent event;
    event.pci = std::string(text.substr(at, address));
    at += address;
    if (!starts_with(text.substr(at), "): ")) return std::nullopt;
    at += 3;
    size_t digits = run_of(text, at, 5, digit);
    if (digits == 0 || digits > 4) return std::nullopt;
    if (at + digits < text.size() && text[at + digits] != ',') return std::nullopt;
    int number = 0;
    for (size_t i = 0; i < digits; ++i) number = number * 10 + (text[at + i] - '0');
    event.number = number;
    event.info = find_xid(number);
    return event;
}

std::optional<std::string_view> driver_gpu_report_address(std::string_view text) {
    constexpr std::string_view kHead = "NVRM: The NVIDIA GPU ";
    if (!starts_with(text, kHead)) return std::nullopt;
    size_t address = pci_address_length(text.substr(kHead.size()));
    if (address == 0) return std::nullopt;
    return text.substr(kHead.size(), address);
}

}  // namespace strata
