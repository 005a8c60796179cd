// Small text helpers of `strata explain`: lines of any input, ASCII lower
// case (and a hash that looks strings up by a view), and a printable excerpt
// of a line for reports.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// Lines split at \n, \r\n and lone \r (old Mac logs and progress bars).
std::vector<std::string_view> text_lines(std::string_view text);
std::string lower_ascii(std::string_view text);
// The same into `out`, whose buffer is reused (no allocation per line).
void assign_lower_ascii(std::string_view text, std::string& out);

// Hashes std::string keys and std::string_view lookups alike, so an
// unordered_map<std::string, …, StringViewHash, std::equal_to<>> is searched
// by a view without making a string of it.
struct StringViewHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};
// The line with control characters escaped (no terminal escape sequence
// reaches a terminal through a report) and, when long, cut to a window
// around `matched`.
std::string printable_excerpt(std::string_view line, std::string_view matched);

}  // namespace strata
