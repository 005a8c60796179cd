// A fact: one observed value and where it came from.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/layer.h"

namespace strata {

using Json = nlohmann::ordered_json;

// Serialises strictly and never throws: text read from files or plugins may
// hold invalid UTF-8, which becomes U+FFFD instead of aborting the report.
inline std::string to_json_text(const Json& value, int indent = -1) {
    return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

struct Fact {
    std::string key;     // stable dotted id: "driver.kernel_module.version"
    Json value;          // string, integer, finite double, bool or array of strings
    std::string source;  // "/proc/driver/nvidia/version", "cuDriverGetVersion", ...
    Layer layer = Layer::host;
};

}  // namespace strata
