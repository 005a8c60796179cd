// Reading files and JSON that anyone may have written: results files given to
// `compare`, evaluation files given to `explain`, records from other nodes.
// Each is bounded in size and nesting, read without blocking, and refused
// with one line that names the file and the reason.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "model/fact.h"

namespace strata {

// Deep enough for any document strata or Google Benchmark writes (they
// nest a handful of levels), shallow enough that no parse or destruction of
// the tree can run out of stack.
inline constexpr size_t kMaxJsonDepth = 128;

// The whole file, at most `limit` bytes. Throws UsageError for a missing or
// unreadable file, a FIFO, directory or device, and a file over the limit.
std::string read_input_file(const std::string& path, size_t limit);

// A stream (standard input) that may be a log of any length, kept in bounded
// memory: all of it when it holds at most head + tail bytes, else its first
// `head` and last `tail` bytes, each cut to whole lines. Reading stops after
// `scan_limit` bytes, so endless input (`< /dev/zero`) ends there.
struct StreamExcerpt {
    std::string text;
    size_t bytes_read = 0;       // how much of the stream was read
    bool lines_skipped = false;  // text is the head and tail, not all of it
    bool scan_cut = false;       // the stream went on past scan_limit
    // Where lines_skipped: the head's line count, and the stream's line number
    // of the tail's first line, so a line of `text` can be named as the
    // stream numbers it.
    size_t head_lines = 0;
    size_t tail_first_line = 0;
    size_t line_in_stream(size_t line_in_text) const {
        return lines_skipped && line_in_text > head_lines ? line_in_text - head_lines - 1 + tail_first_line
                                                          : line_in_text;
    }
};
StreamExcerpt read_head_and_tail(std::istream& in, size_t head, size_t tail, size_t scan_limit);

// Parses `text`; throws UsageError ("WHERE: not valid JSON (...)" or "WHERE:
// nested deeper than 128 levels").
Json parse_json_input(std::string_view text, const std::string& where);

// The same without throwing: nullopt for anything parse_json_input refuses.
std::optional<Json> try_parse_json_input(std::string_view text);

// How deep arrays and objects nest in `text` (strings skipped), counted
// without building anything; stops counting past `give_up_above`.
size_t json_nesting_depth(std::string_view text, size_t give_up_above);

}  // namespace strata
