#include "explain/text_lines.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace strata {

std::vector<std::string_view> text_lines(std::string_view text) {
    std::vector<std::string_view> out;
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    const char* start = begin;
    // memchr finds each '\n' at vector speed; a lone '\r' (rare) is looked
    // for only between two of them.
    while (start < end) {
        const char* newline = static_cast<const char*>(std::memchr(start, '\n', size_t(end - start)));
        const char* stop = newline ? newline : end;
        for (const char* cr = static_cast<const char*>(std::memchr(start, '\r', size_t(stop - start)));
             cr != nullptr; cr = static_cast<const char*>(std::memchr(start, '\r', size_t(stop - start)))) {
            out.emplace_back(start, size_t(cr - start));
            start = cr + 1;
            if (start == newline) {  // "\r\n" is one break
                start = newline + 1;
                break;
            }
        }
        if (start > stop) continue;  // the "\r\n" above
        if (!newline) {
            if (stop > start) out.emplace_back(start, size_t(stop - start));
            break;
        }
        out.emplace_back(start, size_t(newline - start));
        start = newline + 1;
    }
    return out;
}

std::string lower_ascii(std::string_view text) {
    std::string out;
    assign_lower_ascii(text, out);
    return out;
}

void assign_lower_ascii(std::string_view text, std::string& out) {
    out.assign(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
}

std::string printable_excerpt(std::string_view line, std::string_view matched) {
    constexpr size_t kMax = 240;
    std::string out, tail;
    if (line.size() > kMax) {
        size_t at = matched.empty() ? std::string_view::npos : line.find(matched);
        size_t from = at == std::string_view::npos || at < kMax / 3 ? 0 : at - kMax / 3;
        size_t to = std::min(line.size(), from + kMax);
        // Cut between words and say so: "... before calling", never "efore
        // calling"; the matched words stay whole.
        size_t keep_from = at == std::string_view::npos ? to : at;
        size_t keep_to = at == std::string_view::npos ? from : at + matched.size();
        if (from > 0) {
            size_t space = line.find(' ', from);
            if (space != std::string_view::npos && space < keep_from) from = space + 1;
        }
        if (to < line.size()) {
            size_t space = line.rfind(' ', to);
            if (space != std::string_view::npos && space > from && space >= keep_to) to = space;
        }
        if (from > 0) out = "... ";
        if (to < line.size()) tail = " ...";
        line = line.substr(from, to - from);
    }
    for (unsigned char c : line) {
        if (c < 0x20 || c == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
            out += c == '\t' ? std::string(" ") : std::string(escaped);
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + tail;
}

}  // namespace strata
