// The worker protocol: JSON Lines from a `strata worker` child to its parent.
//
//   {"type":"hello","protocol":1,"plugin":{...descriptor...}}
//   {"type":"fact","key":"...","value":...,"source":"..."}
//   {"type":"check","id":"...","layer":"...","status":"...","summary":"...",...}
//   {"type":"measurement","name":"...","value":1.5,"unit":"ms"}
//   {"type":"log","level":"info","message":"..."}
//   {"type":"load_error","kind":"missing_dependency","message":"...","library":"..."}
//   {"type":"done","result":0}
//
// The parent treats the worker as untrusted: a line that does not parse, or
// parses to something else, ends the task with status `error`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "model/check.h"
#include "model/fact.h"
#include "model/measurement.h"
#include "model/plugin_record.h"

namespace strata::protocol {

inline constexpr int version = 1;
// A longer line is refused rather than buffered without bound.
inline constexpr size_t max_line_bytes = 1 << 20;

struct Hello {
    PluginRecord plugin;
};
struct LogLine {
    std::string level;
    std::string message;
};
struct LoadError {
    std::string kind;  // dlopen, missing_dependency, no_entry_symbol, abi_mismatch, bad_descriptor
    std::string message;
    std::string library;  // the missing soname, when known
};
struct Done {
    int result = 0;
};

using Message = std::variant<Hello, Fact, Check, Measurement, LogLine, LoadError, Done>;

std::string encode(const Hello& hello);
std::string encode(const Fact& fact);
std::string encode(const Check& check);
std::string encode(const Measurement& measurement);
std::string encode(const LogLine& log);
std::string encode(const LoadError& error);
std::string encode(const Done& done);

// Parses one line (without its newline). On failure returns nullopt and sets
// `error` to a one-line reason.
std::optional<Message> decode(std::string_view line, std::string& error);

}  // namespace strata::protocol
