// `strata explain`: from a pasted error message or a whole log to the layer at
// fault, the failure class, the line that decided it and its meaning; then the
// causes of that class are read from a probe run of this machine.
//
// Knowledge lives in data: the status codes of every CUDA library
// (status_codes.h, generated from the toolkit's headers), the Xid catalog
// (xid_catalog.h), message catalogs of the code that prints them (signal.h and
// catalog_*.cpp), and the glibc loader's messages (loader_messages.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "explain/failure_classes.h"
#include "explain/status_codes.h"
#include "explain/xid_catalog.h"
#include "model/layer.h"
#include "model/report.h"

namespace strata {

// One thing recognised on one line of the input.
struct Finding {
    std::string kind;  // "message", "status_code", "xid", "loader"
    std::string id;    // the signal's id, the code's name, "xid.79", "loader.cannot_open"
    std::string failure_class;
    Layer layer = Layer::driver;
    int specificity = 0;
    size_t line = 0;        // 1-based
    std::string line_text;  // the line, control characters escaped, capped
    std::string matched;    // the words that gave it away
    std::string meaning;
    std::string source;  // who prints this message
    // The class the same words mean inside a container, where it differs.
    std::string failure_class_in_container;
    const StatusCode* code = nullptr;
    std::optional<XidEvent> xid;
};

struct Explanation {
    std::optional<Finding> cause;          // the most specific finding; empty when nothing was recognised
    std::vector<Finding> findings;         // every finding, most specific first
    std::vector<const StatusCode*> codes;  // each status code the text names, once
    std::vector<XidEvent> xids;            // each Xid event, in order
    size_t lines = 0;
    // The log shows the driver's version (an nvidia-smi header, "driver
    // version 470"): a driver was there to answer.
    bool shows_driver_version = false;
};

// How explain_text reads. Every finder looks for literal words, so a line
// without any of them can hold no finding, and a finder none of whose words
// is on a line can find nothing there: `with_literals` skips those lines and
// finders (explain/line_patterns.h), and a signal already found on an
// earlier line. `every_line` runs every finder for everything on every line,
// and exists to prove that skipping never changes an answer (tests, the fuzz
// target fuzz_explain_skipping).
enum class LineSelection { with_literals, every_line };

// Pure: no I/O. Any text, of any size and encoding, is read line by line, in
// time linear in its length (explain/line_patterns.h).
Explanation explain_text(std::string_view text, bool in_container,
                         LineSelection selection = LineSelection::with_literals);

// The patterns RE2 refused to compile (a signal that can then never fire);
// empty in a correct build.
std::vector<std::string> explain_pattern_errors();

enum class CauseState { holds, ruled_out, unknown };
struct CauseVerdict {
    const ExplainCause* cause;
    CauseState state;
    std::string evidence;  // the check's summary, or why it is unknown
};
std::vector<CauseVerdict> evaluate_causes(const FailureClass& failure_class, const Report& machine);

}  // namespace strata
