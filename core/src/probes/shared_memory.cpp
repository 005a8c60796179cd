#include "probes/shared_memory.h"

#include <charconv>
#include <limits>

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

SharedMemoryMount find_tmpfs_mount(std::string_view mounts, std::string_view mount_point) {
    SharedMemoryMount found;
    size_t pos = 0;
    while (pos < mounts.size()) {
        size_t end = mounts.find('\n', pos);
        if (end == std::string_view::npos) end = mounts.size();
        std::string_view line = mounts.substr(pos, end - pos);
        pos = end + 1;
        // device mount-point type options dump pass, separated by single spaces
        // (the kernel escapes spaces inside fields as \040).
        std::string_view fields[4];
        size_t start = 0;
        int count = 0;
        for (; count < 4 && start <= line.size(); ++count) {
            size_t space = line.find(' ', start);
            if (space == std::string_view::npos) space = line.size();
            fields[count] = line.substr(start, space - start);
            start = space + 1;
        }
        if (count < 4 || fields[1] != mount_point) continue;
        found = SharedMemoryMount{true, std::nullopt};
        std::string_view options = fields[3];
        size_t option_start = 0;
        while (option_start <= options.size()) {
            size_t comma = options.find(',', option_start);
            if (comma == std::string_view::npos) comma = options.size();
            std::string_view option = options.substr(option_start, comma - option_start);
            if (option.starts_with("size=")) found.size_bytes = parse_tmpfs_size(option.substr(5));
            option_start = comma + 1;
        }
    }
    return found;
}

}  // namespace strata
