#include "model/status.h"

#include <array>

namespace strata {

namespace {
constexpr std::array all_statuses = {Status::pass,  Status::warn,    Status::fail,   Status::skip,
                                     Status::error, Status::crashed, Status::timeout};
}

std::string_view status_name(Status status) {
    switch (status) {
        case Status::pass: return "pass";
        case Status::warn: return "warn";
        case Status::fail: return "fail";
        case Status::skip: return "skip";
        case Status::error: return "error";
        case Status::crashed: return "crashed";
        case Status::timeout: return "timeout";
    }
    return "error";
}

std::optional<Status> parse_status(std::string_view name) {
    for (Status status : all_statuses)
        if (status_name(status) == name) return status;
    return std::nullopt;
}

bool is_failure(Status status) {
    return status == Status::fail || status == Status::error || status == Status::crashed ||
           status == Status::timeout;
}

int severity(Status status) {
    switch (status) {
        case Status::pass: return 0;
        case Status::skip: return 1;
        case Status::warn: return 2;
        case Status::error: return 3;
        case Status::timeout: return 4;
        case Status::crashed: return 5;
        case Status::fail: return 6;
    }
    return 6;
}

}  // namespace strata
