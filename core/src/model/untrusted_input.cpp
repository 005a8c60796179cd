#include "model/untrusted_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <istream>

#include "model/usage_error.h"

namespace strata {

namespace {

std::string size_text(size_t bytes) {
    return bytes >= (1u << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

}  // namespace

std::string read_input_file(const std::string& path, size_t limit) {
    // Without blocking: a FIFO must be refused, not waited on.
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw UsageError("cannot read '" + path + "': " + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        int saved = errno;
        ::close(fd);
        throw UsageError("cannot read '" + path + "': " + std::strerror(saved));
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(fd);
        throw UsageError("cannot read '" + path + "': it is " + kind_of(info.st_mode) + ", not a file");
    }
    // A file that says it is too large is refused before a byte is read (a
    // sparse 1 TB file costs nothing to make); one that grows while it is
    // read is stopped at the limit below.
    if (static_cast<uint64_t>(info.st_size) > limit) {
        ::close(fd);
        throw UsageError("'" + path + "' is larger than " + size_text(limit) + "; refusing to read it");
    }
    std::string data;
    data.reserve(static_cast<size_t>(info.st_size));
    char buffer[65536];
    for (;;) {
        ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int saved = errno;
            ::close(fd);
            throw UsageError("cannot read '" + path + "': " + std::strerror(saved));
        }
        if (got == 0) break;
        data.append(buffer, static_cast<size_t>(got));
        if (data.size() > limit) {
            ::close(fd);
            throw UsageError("'" + path + "' is larger than " + size_text(limit) + "; refusing to read it");
        }
    }
    ::close(fd);
    return data;
}

StreamExcerpt read_head_and_tail(std::istream& in, size_t head, size_t tail, size_t scan_limit) {
    StreamExcerpt out;
    // Until the stream passes head + tail bytes it is read straight into
    // out.text, its final place: most logs fit, and each byte is then copied
    // once (growing or re-copying 8 MiB was half of what `explain` spent on a
    // long log). Past that, the head and a trimmed tail are kept apart.
    std::string first, last;  // `last` holds between tail and 2 * tail bytes once trimmed
    size_t line_breaks = 0;   // in everything read
    char buffer[1 << 16];
    const size_t whole = std::min(head + tail, scan_limit);
    out.text.reserve(whole);
    bool split = false;
    while (out.bytes_read < scan_limit &&
           (in.read(buffer,
                    static_cast<std::streamsize>(std::min(sizeof buffer, scan_limit - out.bytes_read))) ||
            in.gcount() > 0)) {
        std::string_view chunk(buffer, static_cast<size_t>(in.gcount()));
        out.bytes_read += chunk.size();
        line_breaks += static_cast<size_t>(std::count(chunk.begin(), chunk.end(), '\n'));
        if (!split && out.text.size() + chunk.size() <= whole) {
            out.text.append(chunk);
            continue;
        }
        if (!split) {
            split = true;
            std::string_view read(out.text);
            first.assign(read.substr(0, head));
            last.reserve(2 * tail + sizeof buffer);
            last.assign(read.substr(std::min(read.size(), head)));
            out.text.clear();
            out.text.shrink_to_fit();
        }
        size_t to_head = std::min(chunk.size(), head - first.size());
        first.append(chunk.substr(0, to_head));
        last.append(chunk.substr(to_head));
        if (last.size() > 2 * tail) last.erase(0, last.size() - tail);
    }
    out.scan_cut = out.bytes_read >= scan_limit && in.peek() != std::char_traits<char>::eof();
    if (!split) return out;
    last.erase(0, last.size() - tail);
    out.lines_skipped = true;
    // Whole lines only: the head up to its last line break, the tail from
    // after its first, so no line is read half.
    size_t head_end = first.rfind('\n');
    size_t tail_start = last.find('\n');
    std::string_view kept_head(first.data(), head_end == std::string::npos ? first.size() : head_end + 1);
    std::string_view kept_tail =
        std::string_view(last).substr(tail_start == std::string::npos ? 0 : tail_start + 1);
    out.head_lines = static_cast<size_t>(std::count(kept_head.begin(), kept_head.end(), '\n'));
    out.tail_first_line =
        line_breaks - static_cast<size_t>(std::count(kept_tail.begin(), kept_tail.end(), '\n')) + 1;
    out.text = std::string(kept_head);
    // A head that is part of one long line ends it, so it is not read as one
    // line with the tail's first.
    if (!out.text.empty() && out.text.back() != '\n') {
        out.text += '\n';
        ++out.head_lines;
    }
    out.text.append(kept_tail);
    return out;
}

size_t json_nesting_depth(std::string_view text, size_t give_up_above) {
    size_t depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > give_up_above) return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

Json parse_json_input(std::string_view text, const std::string& where) {
    if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
        throw UsageError(where + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    try {
        return Json::parse(text);
    } catch (const Json::exception& error) {  // parse_error, and out_of_range for 1e999
        // nlohmann says where: "parse error at line 3, column 1: ..."
        std::string what = error.what();
        size_t at = what.find("parse error");
        throw UsageError(where + ": not valid JSON (" + (at == std::string::npos ? what : what.substr(at)) +
                         ")");
    }
}

std::optional<Json> try_parse_json_input(std::string_view text) {
    if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) return std::nullopt;
    Json value = Json::parse(text, nullptr, false);
    if (value.is_discarded()) return std::nullopt;
    return value;
}

}  // namespace strata
