#include "frameworks/python_environments.h"

#include <unistd.h>

#include <filesystem>
#include <set>

#include "model/usage_error.h"
#include "plugins/plugin_trust.h"
#include "probes/run_program.h"
#include "probes/text_util.h"

namespace strata {

namespace {

namespace fs = std::filesystem;

// Prints the version, then every directory imports would search. The
// interpreter starts as it always does (site must run: it is what applies a
// venv's pyvenv.cfg), and nothing else is imported.
constexpr const char* kAskSearchPath =
    "import sys, site\n"
    "print(sys.version.split()[0])\n"
    "dirs = list(sys.path[1:])\n"
    "try:\n"
    "    dirs += site.getsitepackages()\n"
    "except Exception:\n"
    "    pass\n"
    "try:\n"
    "    dirs.append(site.getusersitepackages())\n"
    "except Exception:\n"
    "    pass\n"
    "for d in dirs:\n"
    "    print(d)\n";

constexpr std::chrono::milliseconds kInterpreterDeadline{10'000};

bool is_directory(const std::string& path) {
    std::error_code error;
    return fs::is_directory(path, error);
}

// Keeps directories that exist and could hold packages (not the standard
// library's zip or lib-dynload), each once.
void add_directory(std::vector<std::string>& out, const std::string& reported) {
    if (reported.empty() || !is_directory(reported)) return;
    // A relative PYTHONPATH entry is reported relative: made absolute as --site-packages is.
    const std::string path = absolute_directory(reported);
    std::string name = fs::path(path).filename().string();
    if (name == "lib-dynload") return;
    std::error_code error;
    std::string canonical = fs::weakly_canonical(path, error).string();
    for (const std::string& existing : out) {
        std::error_code other_error;
        if (fs::weakly_canonical(existing, other_error).string() == canonical) return;
    }
    // The standard library directory itself holds no installed distributions.
    bool has_packages = false;
    for (const auto& entry :
         fs::directory_iterator(path, fs::directory_options::skip_permission_denied, error)) {
        std::string entry_name = entry.path().filename().string();
        if (entry_name.ends_with(".dist-info") || entry_name.ends_with(".egg-info")) {
            has_packages = true;
            break;
        }
    }
    if (has_packages || name == "site-packages" || name == "dist-packages") out.push_back(path);
}

// Whether a program's name says it is a Python interpreter (python3,
// python3.12, pypy3): only then does its prefix's layout say anything about
// it. /bin/false's prefix is /, whose lib/python3* is the system's.
bool named_like_python(const std::string& interpreter) {
    std::string name = fs::path(interpreter).filename().string();
    return name.starts_with("python") || name.starts_with("pypy");
}

PythonEnvironment ask_interpreter(const std::string& label, const std::string& interpreter) {
    PythonEnvironment env;
    env.label = label;
    env.interpreter = interpreter;
    if (auto problem = environment_trust_problem(interpreter)) {
        // Its layout says where its packages are without running a line of it.
        env.untrusted = *problem;
        env.problem = interpreter + " not run: " + *problem;
    } else if (ProgramResult result = run_program({interpreter, "-c", kAskSearchPath}, kInterpreterDeadline);
               result.ok) {
        auto lines = split_lines(result.output);
        for (size_t i = 0; i < lines.size(); ++i) {
            std::string line(trim(lines[i]));
            if (i == 0)
                env.python_version = line;
            else
                add_directory(env.directories, line);
        }
    } else {
        env.problem = interpreter + " " + result.problem;
    }
    if (env.directories.empty() && named_like_python(interpreter)) {
        // The interpreter could not say: use what its prefix's layout implies
        // (a venv's python is <prefix>/bin/python).
        fs::path prefix = fs::path(interpreter).parent_path().parent_path();
        for (const std::string& dir : layout_site_directories(prefix.string()))
            add_directory(env.directories, dir);
    }
    return env;
}

std::string find_on_path(const ProbeContext& context, const std::string& program) {
    for (const std::string& dir : split_path_list(context.env("PATH").value_or(""))) {
        fs::path candidate = fs::path(dir) / program;
        std::error_code error;
        if (fs::is_regular_file(candidate, error) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate.string();
    }
    return {};
}

}  // namespace

std::optional<std::string> environment_trust_problem(const std::string& interpreter) {
    TrustedPlugin program = check_plugin_trust(interpreter);
    if (program.refusal) return "the interpreter: " + *program.refusal;
    // A venv's python is <prefix>/bin/python: its site directories hold the
    // .pth files and packages every start runs.
    fs::path prefix = fs::absolute(interpreter).lexically_normal().parent_path().parent_path();
    for (const std::string& dir : layout_site_directories(prefix.string()))
        if (auto problem = check_directory_trust(dir)) return "its packages: " + *problem;
    return std::nullopt;
}

std::string absolute_directory(const std::string& dir) {
    std::error_code error;
    fs::path path = fs::absolute(dir, error).lexically_normal();
    if (error) return dir;
    std::string text = path.string();
    while (text.size() > 1 && text.back() == '/') text.pop_back();
    return text;
}

std::vector<std::string> layout_site_directories(const std::string& prefix) {
    std::vector<std::string> out;
    std::error_code error;
    fs::path lib = fs::path(prefix) / "lib";
    std::set<std::string> found;
    for (const auto& entry :
         fs::directory_iterator(lib, fs::directory_options::skip_permission_denied, error)) {
        std::string name = entry.path().filename().string();
        if (!name.starts_with("python3")) continue;
        for (const char* leaf : {"site-packages", "dist-packages"})
            if (is_directory((entry.path() / leaf).string())) found.insert((entry.path() / leaf).string());
    }
    out.assign(found.begin(), found.end());
    return out;
}

std::vector<PythonEnvironment> find_python_environments(const ProbeContext& context,
                                                        const EnvironmentRequest& request) {
    std::vector<PythonEnvironment> out;
    for (const std::string& python : request.pythons) {
        std::error_code error;
        if (!fs::exists(python, error)) throw UsageError("--python '" + python + "' does not exist");
        PythonEnvironment env = ask_interpreter("--python " + python, python);
        // An interpreter the user named that neither answered nor is laid
        // out as one would be judged on nothing: that is not a pass.
        if (env.directories.empty() && env.untrusted.empty())
            throw UsageError("--python '" + python + "' gave no package directories to read" +
                             (env.problem.empty() ? std::string() : ": " + env.problem));
        out.push_back(std::move(env));
    }
    for (const std::string& dir : request.site_packages) {
        if (!is_directory(dir)) throw UsageError("--site-packages '" + dir + "' is not a directory");
        PythonEnvironment env;
        env.label = "--site-packages " + dir;
        // Absolute once, here: every path below (RECORD entries, $ORIGIN,
        // torch/version.py) is joined to it and must not depend on the
        // working directory or on how the user spelled it ("site", ".", "x/").
        env.directories.push_back(absolute_directory(dir));
        out.push_back(std::move(env));
    }
    if (!request.pythons.empty() || !request.site_packages.empty()) return out;

    // The environments a user here would run from: an activated venv or
    // conda environment first, then whatever `python3` is on PATH.
    std::set<std::string> asked;
    auto consider = [&](const std::string& label, const std::string& interpreter) {
        if (interpreter.empty() || !asked.insert(interpreter).second) return;
        std::error_code error;
        if (!fs::exists(interpreter, error)) return;
        out.push_back(ask_interpreter(label, interpreter));
    };
    for (const char* variable : {"VIRTUAL_ENV", "CONDA_PREFIX"})
        if (auto prefix = context.env(variable); prefix && !prefix->empty())
            for (const char* name : {"python3", "python"})
                if (fs::exists(fs::path(*prefix) / "bin" / name)) {
                    consider(variable, (fs::path(*prefix) / "bin" / name).string());
                    break;
                }
    consider("python3 on PATH", find_on_path(context, "python3"));
    // The same directories reached through two interpreters are read once.
    std::set<std::string> seen;
    for (PythonEnvironment& env : out) {
        std::vector<std::string> unique;
        for (const std::string& dir : env.directories)
            if (seen.insert(dir).second) unique.push_back(dir);
        env.directories = std::move(unique);
    }
    return out;
}

}  // namespace strata
