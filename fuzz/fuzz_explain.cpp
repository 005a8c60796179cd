// `strata explain` input: any pasted text, of any size and encoding.
#include <cstdint>
#include <string_view>

#include "explain/assessment.h"
#include "explain/explain.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    for (bool in_container : {false, true}) {
        strata::Explanation found = strata::explain_text(text, in_container);
        // An answer always says which line decided it, what it matched, and a
        // class strata knows; the line exists in the input.
        if (found.cause) {
            const auto& cause = *found.cause;
            if (cause.line == 0 || cause.line > found.lines || cause.failure_class.empty() ||
                !strata::find_failure_class(cause.failure_class))
                __builtin_trap();
        }
        for (const auto& f : found.findings)
            if (f.line_text.find('\x1b') != std::string::npos)
                __builtin_trap();  // escapes never reach a terminal
        // The assessment: an answer is always its first candidate, every
        // candidate a class strata knows, at most three similar reports.
        strata::AssessmentContext context;
        if (in_container) context.in_container = true;
        strata::Assessment assessment = strata::assess(found, text, context);
        if (assessment.answered() && (!found.cause || assessment.candidates.empty())) __builtin_trap();
        for (const auto& candidate : assessment.candidates)
            if (!strata::find_failure_class(candidate.failure_class)) __builtin_trap();
        if (assessment.similar.size() > context.similar_count) __builtin_trap();
    }
    return 0;
}
