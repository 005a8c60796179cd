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

// The whole stream (standard input), at most `limit` bytes; throws UsageError
// naming `what` beyond it (`< /dev/zero` ends there, not when memory does).
std::string read_input_stream(std::istream& in, size_t limit, const std::string& what);

// Parses `text`; throws UsageError ("WHERE: not valid JSON (...)" or "WHERE:
// nested deeper than 128 levels").
Json parse_json_input(std::string_view text, const std::string& where);

// The same without throwing: nullopt for anything parse_json_input refuses.
std::optional<Json> try_parse_json_input(std::string_view text);

// How deep arrays and objects nest in `text` (strings skipped), counted
// without building anything; stops counting past `give_up_above`.
size_t json_nesting_depth(std::string_view text, size_t give_up_above);

}  // namespace strata
