// Turns the shared command-line options into RunOptions.
#pragma once

#include "cli/commands.h"
#include "doctor/doctor.h"

namespace strata::cli {

// Adds STRATA_PLUGIN_PATH's entries after the --plugin-path ones.
RunOptions make_run_options(const PluginOptions& options, const std::string& executable);
RunOptions make_run_options(const PluginOptions& options, const EnvironmentOptions& environments,
                            const std::string& executable);

// For options that name a file or directory: an empty value ("--junit ''")
// is an error, not silently the same as leaving the option out.
CLI::Validator non_empty_path();

}  // namespace strata::cli
