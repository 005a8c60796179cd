// How sure `strata explain` is, and what it says when it is not: the
// confidence of an explanation, grounded in its evidence (a message that
// names one cause, words several causes print, findings that compete, and
// whether the real reports most like it agree), and the ranked candidate
// causes, each with what tells it apart.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "explain/explain.h"
#include "explain/similar_reports.h"

namespace strata {

enum class Confidence { low, medium, high };
std::string_view confidence_name(Confidence confidence);

struct Candidate {
    std::string failure_class;
    std::string why;         // the cause, in words a person checks
    std::string tell_apart;  // the command or fact that confirms it
};

struct Assessment {
    Confidence confidence = Confidence::low;
    std::vector<std::string> reasons;   // why this confidence, most important first
    std::vector<Candidate> candidates;  // ranked; when answered(), the first is the answer
    std::vector<SimilarReport> similar;
    // Whether the evidence singles out a class. When it does not, the answer
    // is the candidates, never a class.
    bool answered() const { return confidence != Confidence::low && !candidates.empty(); }
    // The word the evidence gives for what kind of failure this is: a program's
    // own error (out of memory, a kernel's fault) is "program", not the stack.
    bool program_error = false;
};

struct AssessmentContext {
    // Whether the error came from a container: from the log, --container,
    // --record or the evaluation record. Empty when nothing says.
    std::optional<bool> in_container;
    std::string excluded_source;  // an evaluation never finds the report it scores
    size_t similar_count = 3;
};

// `text` is what was explained (its first 64 KiB are compared with the
// shipped reports when it is long, the lines that decided otherwise).
Assessment assess(const Explanation& explanation, std::string_view text, const AssessmentContext& context);

}  // namespace strata
