// A check the runner reports about its own work (why nothing ran, what was
// left out, how the JIT proof went), through the worker's host table like a
// plugin's checks.
#pragma once

#include <string>

#include "strata/plugin.h"

namespace strata::bench {

inline void report_check(const strata_host_api& host, const std::string& id, strata_layer layer,
                         strata_status status, const std::string& summary) {
    strata_check check{};
    check.struct_size = sizeof check;
    check.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    check.abi_minor = STRATA_PLUGIN_ABI_MINOR;
    check.id = {id.data(), id.size()};
    check.layer = layer;
    check.status = status;
    check.summary = {summary.data(), summary.size()};
    host.emit_check(host.context, &check);
}

}  // namespace strata::bench
