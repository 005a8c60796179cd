// A fact: one observed value and where it came from.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/layer.h"

namespace strata {

using Json = nlohmann::ordered_json;

struct Fact {
    std::string key;     // stable dotted id: "driver.kernel_module.version"
    Json value;          // string, integer, finite double, bool or array of strings
    std::string source;  // "/proc/driver/nvidia/version", "cuDriverGetVersion", ...
    Layer layer = Layer::host;
};

}  // namespace strata
