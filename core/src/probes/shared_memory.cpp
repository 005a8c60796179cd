#include "probes/shared_memory.h"

#include <charconv>
#include <limits>

#include "probes/text_util.h"

namespace strata {

std::optional<uint64_t> parse_tmpfs_size(std::string_view value) {
    uint64_t number = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (error != std::errc() || end == value.data()) return std::nullopt;
    std::string_view suffix(end, static_cast<size_t>(value.data() + value.size() - end));
    int shift = 0;
    if (suffix.size() > 1) return std::nullopt;  // "50%", "64mb": not a byte count
    if (suffix.size() == 1) {
        switch (suffix[0] | 0x20) {  // tmpfs accepts either case
            case 'k': shift = 10; break;
            case 'm': shift = 20; break;
            case 'g': shift = 30; break;
            case 't': shift = 40; break;
            case 'p': shift = 50; break;
            case 'e': shift = 60; break;
            default: return std::nullopt;
        }
    }
    if (shift && number > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
    return number << shift;
}

namespace {

// The `index`th field (from 0) of a line whose fields are separated by
// `separator`; empty when the line has fewer.
std::string_view field(std::string_view line, size_t index, char separator) {
    for (size_t i = 0; i < index; ++i) {
        size_t at = line.find(separator);
        if (at == std::string_view::npos) return {};
        line.remove_prefix(at + 1);
    }
    return line.substr(0, line.find(separator));
}

}  // namespace

SharedMemoryMount find_tmpfs_mount(std::string_view mounts, std::string_view mount_point) {
    SharedMemoryMount found;
    // device mount-point type options dump pass, separated by single spaces
    // (the kernel escapes spaces inside fields as \040).
    for (std::string_view line : split_lines(mounts)) {
        std::string_view options = field(line, 3, ' ');
        if (field(line, 1, ' ') != mount_point || options.empty()) continue;
        found = SharedMemoryMount{true, std::nullopt};
        for (std::string_view rest = options;;) {
            size_t comma = rest.find(',');
            std::string_view option = rest.substr(0, comma);
            if (option.starts_with("size=")) found.size_bytes = parse_tmpfs_size(option.substr(5));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    return found;
}

}  // namespace strata
