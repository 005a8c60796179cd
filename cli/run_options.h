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

// "3%" or "3" -> 0.03, for an option that takes a percentage; 0 only when
// `zero_allowed`. Throws UsageError naming the option otherwise.
double parse_percentage(const std::string& option, const std::string& text, bool zero_allowed = false);

// --html FILE: a self-contained HTML page (plots and the numbers behind
// them), written atomically; the path is checked before any work.
void add_html_option(CLI::App& command, std::string& path);
// --prometheus FILE: node_exporter textfile metrics, written atomically.
void add_prometheus_option(CLI::App& command, std::string& path);
// Writes the file; a name node_exporter would not read (it reads *.prom) is
// written all the same, with a note on standard error.
void write_prometheus_file(const std::string& path, const std::string& text);

// The text of a JSON document a command prints, with "command" and
// "exit_code" set: every JSON output of strata names both, so a tool reading
// several never guesses which it got or how the run ended.
std::string command_document(Json document, const std::string& command, int exit_code);

}  // namespace strata::cli
