// One recognisable message of the CUDA stack, as data: the text that gives it
// away, what it means, the failure class and layer it points at, and where it
// is printed (its provenance). The catalogs are lists of these.
#pragma once

#include <string_view>
#include <vector>

#include "model/layer.h"

namespace strata {

struct Signal {
    std::string_view id;      // "pytorch.driver_too_old": stable, for tests and --json
    std::string_view anchor;  // lower-case literal that must occur in the line
    // Optional RE2 regex (case-insensitive; no lookaround or backreferences),
    // which must also match on the line; or, when it starts with "any:",
    // '|'-separated lower-case words of which one must also occur in the line.
    // Both run in linear time (explain/line_patterns.h).
    std::string_view regex;
    std::string_view failure_class;
    Layer layer;
    int specificity;           // 0-100: the most specific finding in a log wins
    std::string_view meaning;  // one line a person can act on
    std::string_view source;   // the code or tool that prints the message
    // Inside a container the same words usually mean the GPU was not handed
    // to it; empty when they mean the same everywhere.
    std::string_view failure_class_in_container = {};
};

// Each catalog cites the sources its messages come from (see the .cpp files).
const std::vector<Signal>& driver_signals();
const std::vector<Signal>& container_signals();
const std::vector<Signal>& framework_signals();
const std::vector<Signal>& nccl_signals();
const std::vector<Signal>& toolchain_signals();
const std::vector<Signal>& hardware_signals();
// Last resort: a stack component named with a failure word (lowest specificity).
const std::vector<Signal>& vocabulary_signals();
// All of the above, in one list.
const std::vector<Signal>& all_signals();

}  // namespace strata
