// A check: a judgement about one thing, with the evidence and the fix.
#pragma once

#include <optional>
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
    // The GPU (CUDA ordinal) a per-GPU check is about; the id stays the same
    // on every node and for every GPU.
    std::optional<int> device;
    // The time of the task that produced it, shared among that task's checks
    // (JUnit's per-test time); 0 for the core's own judgements.
    double duration_ms = 0;
    // Matched by --ignore-check: reported with its real status, but it does
    // not make the run fail (a check known to fail on every node of a fleet).
    bool ignored = false;
};

}  // namespace strata
