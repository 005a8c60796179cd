// The host side of the plugin ABI's callback table: it validates what a
// plugin passes (struct sizes, versions, string pointers, finite numbers) and
// hands clean C++ values to a sink. The same table serves a plugin loaded in
// this process (tests) and one loaded by a worker (which writes JSON Lines).
#pragma once

#include <string>

#include "model/check.h"
#include "model/fact.h"
#include "model/measurement.h"
#include "strata/plugin.h"

namespace strata {

class HostSink {
public:
    virtual ~HostSink() = default;
    virtual void on_fact(Fact fact) = 0;
    virtual void on_check(Check check) = 0;
    virtual void on_measurement(Measurement measurement) = 0;
    virtual void on_log(strata_log_level level, std::string message) = 0;
    // The plugin passed something the ABI does not allow; `what` says what.
    virtual void on_invalid(std::string what) = 0;
};

// The returned table points at `sink`; it must not outlive it.
strata_host_api make_host_api(HostSink& sink);

// Copies a plugin string; nullopt when it is not a valid pointer/size pair
// (NULL with a size, or longer than the ABI's 1 MiB limit).
std::optional<std::string> copy_plugin_string(strata_str text);

std::string_view log_level_name(strata_log_level level);

}  // namespace strata
