// `strata explain` skips the lines of a log that hold none of the words its
// finders look for, and the finders whose words are not on a line
// (explain/line_patterns.h). Any text: what it finds so is exactly what
// running every finder on every line finds.
#include <cstdint>
#include <string_view>

#include "explain/explain.h"

namespace {

bool same_findings(const strata::Explanation& a, const strata::Explanation& b) {
    if (a.findings.size() != b.findings.size() || a.xids.size() != b.xids.size() || a.lines != b.lines)
        return false;
    for (size_t i = 0; i < a.findings.size(); ++i) {
        const strata::Finding& x = a.findings[i];
        const strata::Finding& y = b.findings[i];
        if (x.id != y.id || x.line != y.line || x.matched != y.matched || x.specificity != y.specificity ||
            x.failure_class != y.failure_class || x.line_text != y.line_text)
            return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto skipping = strata::explain_text(text, false, strata::LineSelection::with_literals);
    auto every_line = strata::explain_text(text, false, strata::LineSelection::every_line);
    if (!same_findings(skipping, every_line)) __builtin_trap();
    return 0;
}
