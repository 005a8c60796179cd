// `strata explain`: from a pasted error message to the layer at fault, the
// likely causes and the checks that tell them apart; then those checks are
// read from a probe run of this machine to say which cause holds here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/layer.h"
#include "model/report.h"

namespace strata {

// One likely cause and the check that confirms it: the cause holds when the
// check (by id, or the first check whose id starts with it) has one of
// `holds_on`; it is ruled out when the check passed.
struct ExplainCause {
    std::string text;
    std::string check_id;
    std::vector<Status> holds_on = {Status::fail, Status::warn};
};

// One row of the table: a failure class (the vocabulary of
// shared/scenarios/failure-reports.jsonl), the layer it belongs to, the
// patterns that recognise it, the causes and the commands to run by hand.
struct ExplainRule {
    std::string failure_class;  // "driver_too_old_for_runtime"
    Layer layer;
    std::string title;
    std::vector<std::string> patterns;  // ECMAScript regexes, case-insensitive
    std::vector<ExplainCause> causes;
    std::vector<std::string> manual_checks;
    // Inside a container the same words usually mean the GPU was not given
    // to it ("Found no NVIDIA driver"): this class is used instead.
    std::string failure_class_in_container = {};
};

const std::vector<ExplainRule>& explain_rules();

struct Classification {
    const ExplainRule* rule = nullptr;
    std::string failure_class;  // rule's class, or its container variant
    std::string matched;        // the text the pattern matched
};

// First rule (in table order: specific before general) whose pattern matches.
Classification classify_error(std::string_view text, bool in_container);

enum class CauseState { holds, ruled_out, unknown };
struct CauseVerdict {
    const ExplainCause* cause;
    CauseState state;
    std::string evidence;  // the check's summary, or why it is unknown
};
std::vector<CauseVerdict> evaluate_causes(const ExplainRule& rule, const Report& machine);

}  // namespace strata
