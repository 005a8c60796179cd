// Where Python packages are installed on this machine: the environments a
// user would run a framework from (the `python3` on PATH, VIRTUAL_ENV,
// CONDA_PREFIX, or interpreters and site-packages directories named on the
// command line), each with the directories its imports search.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probes/probe_context.h"

namespace strata {

// What the user asked for; both empty means "the environments found here".
struct EnvironmentRequest {
    std::vector<std::string> pythons;        // --python PATH
    std::vector<std::string> site_packages;  // --site-packages DIR
};

struct PythonEnvironment {
    std::string label;        // "python3 on PATH", "VIRTUAL_ENV", "--python", "--site-packages"
    std::string interpreter;  // as found or given; "" for a bare directory
    std::string python_version;
    std::vector<std::string> directories;  // existing site/dist-packages directories, import order
    std::string problem;                   // one line when the interpreter could not be asked
    // Why nothing of this environment may be run (its interpreter, its .pth
    // files, its packages): another user could have written it. Empty when
    // it is root's or the caller's alone (plugin_trust.h's rule).
    std::string untrusted;
};

// Why an environment's code may not run as this user: the interpreter (as
// given and as resolved) and the site directories its prefix's layout
// implies must be root's or the caller's and writable by no one else. A
// `.pth` file in a venv another user owns runs as root under `sudo -E
// strata doctor`. nullopt when trusted.
std::optional<std::string> environment_trust_problem(const std::string& interpreter);

// Asks each interpreter for its search path (`python -c`, importing only
// sys and site) with a deadline; an interpreter that fails, or that may not
// be run (environment_trust_problem), keeps the directories its layout
// implies. Throws UsageError when a
// path the user named does not exist.
std::vector<PythonEnvironment> find_python_environments(const ProbeContext& context,
                                                        const EnvironmentRequest& request);

// The site-packages directories a prefix's layout implies, without running
// anything: <prefix>/lib/python3.*/site-packages (and dist-packages).
// `dir` made absolute and normal ("site", ".", "a/b/" -> "/cwd/site", "/cwd", "/cwd/a/b").
std::string absolute_directory(const std::string& dir);
std::vector<std::string> layout_site_directories(const std::string& prefix);

}  // namespace strata
