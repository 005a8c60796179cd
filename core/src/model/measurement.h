// A number a plugin measured, with its unit.
#pragma once

#include <string>

namespace strata {

struct Measurement {
    std::string origin;  // plugin name
    std::string name;
    double value = 0;  // always finite
    std::string unit;
};

}  // namespace strata
