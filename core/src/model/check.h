// A check: a judgement about one thing, with the evidence and the fix.
#pragma once

#include <string>
#include <vector>

#include "model/layer.h"
#include "model/status.h"

namespace strata {

struct Check {
    std::string id;  // stable dotted id: "driver.kernel_module"
    Layer layer = Layer::host;
    Status status = Status::pass;
    std::string summary;             // one line
    std::string evidence;            // what was observed
    std::string remedy;              // what a person should do; empty on pass
    std::vector<std::string> facts;  // keys of the facts it rests on
    std::string origin = "core";     // "core" or the plugin's name
};

}  // namespace strata
