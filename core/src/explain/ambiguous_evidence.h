// Words that several causes print. A status code or message that names one
// cause settles the class; these do not, and an answer that picks one of
// their causes with full confidence sends a person the wrong way one time in
// several. Each entry lists the other causes the same words are known to
// follow and the one command or fact that tells them apart.
#pragma once

#include <string_view>
#include <vector>

namespace strata {

struct AlternativeCause {
    std::string_view failure_class;
    std::string_view when;        // the cause, in the words a person checks
    std::string_view tell_apart;  // the command or fact that confirms it
};

struct AmbiguousEvidence {
    std::vector<std::string_view> ids;  // finding ids (catalog signals, status code names, loader.*)
    // False where the words alone never settle the class: the answer is then
    // the ranked candidates. True where the catalog's reading is the usual
    // cause and the others are rarer: the answer stands, with them beside it.
    bool usual_reading_holds;
    std::vector<AlternativeCause> alternatives;  // the catalog's own reading is not repeated here
    std::string_view source;                     // where the several causes are documented
    // Inside a container, where the log does not show the driver's version,
    // the words settle nothing: the container may hold no driver at all.
    bool unsettled_in_container_without_driver = false;
};

// Every entry (a finding id is in one entry at most; the tests hold it so).
const std::vector<AmbiguousEvidence>& all_ambiguous_evidence();

// nullptr when the finding's words name one cause.
const AmbiguousEvidence* find_ambiguous_evidence(std::string_view finding_id);

}  // namespace strata
