// The words the fleet renderings share (text, Markdown, HTML).
#pragma once

#include <string>

#include "fleet.h"

namespace strata::fleet {

// "FAIL" for a problem that puts nodes on the list, "note" for a warning.
std::string problem_marker(const FleetProblem& problem);
// "8 x NVIDIA H200, driver 580.65.06 …: n[01-08] (8 nodes), 2 benchmark(s) judged"
std::string group_text(const FleetGroup& group, size_t min_group);
// "7 node(s) reported of 8 expected, 7 record(s); 3 need attention: n[05,07-08]"
std::string fleet_headline(const FleetResult& result);
// The reason names the file, and a file name may hold a line break: one
// record must not print a second FAIL line of its own making.
std::string unreadable_line(const UnreadableRecord& record);

}  // namespace strata::fleet
