// Thrown for bad usage or unreadable input; the CLI turns it into one line
// on stderr and exit status 2.
#pragma once

#include <stdexcept>

namespace strata {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace strata
