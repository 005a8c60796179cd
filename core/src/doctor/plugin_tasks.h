// Runs one plugin task in a worker and folds its outcome into the report.
#pragma once

#include "doctor/doctor.h"
#include "plugins/discovery.h"
#include "worker/supervisor.h"

namespace strata {

// Runs the task in a worker; touches no report, so several can run at once.
TaskOutcome execute_plugin_task(const RunOptions& options, const PluginCandidate& candidate,
                                const std::string& task);

// Folds a finished task into the report and returns the plugin's record
// (state, and descriptor fields when it loaded).
// `missing_library_fails` false: a plugin whose library is not installed is
// a skip, not a failure (RunOptions::missing_library_fails).
PluginRecord fold_plugin_outcome(const PluginCandidate& candidate, const std::string& task,
                                 TaskOutcome outcome, Report& report, bool missing_library_fails = true);

// Both, one after the other.
PluginRecord run_plugin_task(const RunOptions& options, const PluginCandidate& candidate,
                             const std::string& task, Report& report);

// The record and check for a plugin refused before it was ever loaded.
PluginRecord refuse_plugin(const PluginCandidate& candidate, Report& report);

}  // namespace strata
