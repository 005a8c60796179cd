// The failure classes `strata explain` answers with (the vocabulary of
// shared/scenarios/failure-reports.jsonl plus hardware_or_xid_fault), each
// with what it means, the causes strata can check on this machine, and the
// commands a person runs by hand.
#pragma once

#include <string_view>
#include <vector>

#include "model/report.h"

namespace strata {

// A likely cause and the check that confirms it: it holds when the check (by
// id, or every check under a prefix ending in '.') has one of `holds_on`, and
// is ruled out when it passed.
struct ExplainCause {
    std::string_view text;
    std::string_view check_id;
    std::vector<Status> holds_on = {Status::fail, Status::warn};
};

struct FailureClass {
    std::string_view name;  // "driver_missing"
    std::string_view title;
    std::vector<ExplainCause> causes;
    std::vector<std::string_view> manual_checks;
};

const std::vector<FailureClass>& failure_classes();
// nullptr for a name that is not a class.
const FailureClass* find_failure_class(std::string_view name);

// What to gather when nothing in the text is recognised.
const std::vector<std::string_view>& what_to_collect();

}  // namespace strata
