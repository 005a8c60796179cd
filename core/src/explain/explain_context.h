// Where the error came from, as far as anything but the error's own words
// can say: the log's mention of a container runtime, and the machine a
// `strata record` or `doctor --json` file describes. `strata explain` reads
// these before it lets the machine it runs on say anything: a container
// here is not a container there.
#pragma once

#include <optional>
#include <string_view>

#include "model/report.h"
#include "model/untrusted_input.h"

namespace strata {

// True where the log shows the error happened inside or while starting a
// container (a runtime's own words, a pod, a container shell prompt);
// nullopt where it does not say.
std::optional<bool> log_says_container(std::string_view text);

// The checks and facts of a `strata doctor --json` document or a
// `strata record` file (its "doctor" part). Throws UsageError when the
// document holds neither.
Report machine_from_document(const Json& document, const std::string& path);

}  // namespace strata
