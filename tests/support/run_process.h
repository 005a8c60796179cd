// Runs a command and captures its exit status, stdout and stderr, for tests
// that drive the strata binary end to end.
#pragma once

#include <string>
#include <vector>

namespace strata::test {

struct ProcessResult {
    int exit_code = -1;  // -signal when killed by a signal
    std::string out;
    std::string err;
};

// `environment` entries ("NAME=value") are added to (or replace in) this
// process's environment; "NAME" alone removes the variable.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& environment = {});

// Lines in a captured output: one-line errors are checked with it.
size_t line_count(const std::string& text);

// A path under /tmp unique to this test process, so two builds' suites (or
// ctest -j) never share scratch files.
std::string scratch_path(const std::string& name);

// Path of the strata binary under test (set by CMake).
std::string strata_binary();
std::string test_plugin(const std::string& name);  // libstrata_plugin_test_<name>.so
std::string test_plugin_directory();
std::string hostile_plugin(const std::string& name);  // tests/plugins/hostile: kill_parent, flood, ...

}  // namespace strata::test
