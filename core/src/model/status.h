// Check statuses and their ordering by severity.
#pragma once

#include <optional>
#include <string_view>

namespace strata {

enum class Status { pass, warn, fail, skip, error, crashed, timeout };

std::string_view status_name(Status status);
std::optional<Status> parse_status(std::string_view name);
// True for statuses that make `strata doctor` exit 1 and gate later layers.
bool is_failure(Status status);
// Higher is worse; used to summarise a layer by its worst check.
int severity(Status status);

}  // namespace strata
