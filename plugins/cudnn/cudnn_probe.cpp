#include "cudnn_probe.h"

#include <cudnn.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "loaded_files.h"

namespace strata::cudnn {

namespace {

struct Sublibrary {
    const char* name;  // "ops": the fact key part
    const char* soname;
    cudnnStatus_t (*version_check)();  // through libcudnn, which loads the sub-library itself
};

// cuDNN 9's sub-libraries. The four with a version check are loaded by
// libcudnn.so when their check runs; the rest cuDNN opens when it first needs
// an engine, so strata resolves them the same way: LD_LIBRARY_PATH first,
// then libcudnn's own directory ($ORIGIN, its RUNPATH).
const Sublibrary kSublibraries[] = {
    {"graph", "libcudnn_graph.so.9", cudnnGraphVersionCheck},
    {"ops", "libcudnn_ops.so.9", cudnnOpsVersionCheck},
    {"cnn", "libcudnn_cnn.so.9", cudnnCnnVersionCheck},
    {"adv", "libcudnn_adv.so.9", cudnnAdvVersionCheck},
    {"heuristic", "libcudnn_heuristic.so.9", nullptr},
    {"engines_precompiled", "libcudnn_engines_precompiled.so.9", nullptr},
    {"engines_runtime_compiled", "libcudnn_engines_runtime_compiled.so.9", nullptr},
};

std::string directory_of(const std::string& path) {
    return path.substr(0, path.rfind('/'));
}

std::string resolve_like_cudnn(const char* soname, const std::string& cudnn_directory) {
    std::vector<std::string> directories;
    if (const char* value = std::getenv("LD_LIBRARY_PATH")) {
        std::stringstream entries(value);
        for (std::string entry; std::getline(entries, entry, ':');)
            if (!entry.empty()) directories.push_back(entry);
    }
    directories.push_back(cudnn_directory);
    for (const std::string& directory : directories) {
        std::string candidate = directory + "/" + soname;
        if (::access(candidate.c_str(), R_OK) == 0) return candidate;
    }
    return {};
}

}  // namespace

void probe_cudnn(const plugin::Reporter& report) {
    auto version = static_cast<long long>(cudnnGetVersion());
    auto cudart = static_cast<long long>(cudnnGetCudartVersion());
    std::string path = plugin::defining_file(reinterpret_cast<void*>(&cudnnGetVersion));
    report.fact("library.cudnn.version", version, "cudnnGetVersion");
    report.fact("library.cudnn.version_text", plugin::dotted_version(version), "cudnnGetVersion");
    report.fact("library.cudnn.cudart_version", cudart, "cudnnGetCudartVersion");
    report.fact("library.cudnn.path", path, "dladdr");
    report.check("library.cudnn.load", STRATA_LAYER_LIBRARY, STRATA_STATUS_PASS,
                 {"cuDNN " + plugin::dotted_version(version) + " (built for CUDA " +
                      plugin::cuda_version_text(static_cast<int>(cudart)) + ") from " + path,
                  "",
                  "",
                  {"library.cudnn.version", "library.cudnn.cudart_version", "library.cudnn.path"}});

    std::string evidence, problem;
    auto note_problem = [&](const std::string& text) {
        if (problem.empty()) problem = text;
    };
    for (const Sublibrary& sub : kSublibraries) {
        std::string prefix = std::string("library.cudnn.sublibrary.") + sub.name;
        if (sub.version_check) {
            cudnnStatus_t status = sub.version_check();
            report.fact(prefix + ".version_check", static_cast<int>(status), "cudnn*VersionCheck");
            evidence += std::string(sub.soname) + ": version check " + cudnnGetErrorString(status);
            if (status != CUDNN_STATUS_SUCCESS)
                note_problem(std::string(sub.soname) +
                             " fails cuDNN's version check: " + cudnnGetErrorString(status));
        } else {
            std::string file = resolve_like_cudnn(sub.soname, directory_of(path));
            if (file.empty()) {
                evidence += std::string(sub.soname) + ": not found";
                note_problem(std::string(sub.soname) + " is missing: this cuDNN installation is incomplete");
            } else if (!dlopen(file.c_str(), RTLD_LAZY | RTLD_LOCAL)) {
                const char* error = dlerror();
                evidence += std::string(sub.soname) + ": cannot be loaded: " + (error ? error : "");
                note_problem(std::string(sub.soname) + " cannot be loaded");
            } else {
                evidence += std::string(sub.soname) + ": loads";
            }
        }
        evidence += "\n";
    }
    // The graph sub-library answers cudnnGetVersion itself: a different answer
    // means it comes from another cuDNN release than libcudnn.so.
    if (void* graph = dlopen("libcudnn_graph.so.9", RTLD_LAZY | RTLD_NOLOAD)) {
        auto graph_version_fn = reinterpret_cast<size_t (*)()>(dlsym(graph, "cudnnGetVersion"));
        if (graph_version_fn) {
            auto graph_version = static_cast<long long>(graph_version_fn());
            report.fact("library.cudnn.sublibrary.graph.version", graph_version,
                        "libcudnn_graph cudnnGetVersion");
            if (graph_version != version)
                note_problem("libcudnn_graph.so.9 is cuDNN " + plugin::dotted_version(graph_version) +
                             " but libcudnn.so.9 is " + plugin::dotted_version(version));
        }
    }
    plugin::report_loaded_files(report, "cudnn", {"libcudnn"});
    report.check("library.cudnn.sublibraries", STRATA_LAYER_LIBRARY,
                 problem.empty() ? STRATA_STATUS_PASS : STRATA_STATUS_FAIL,
                 {problem.empty() ? "every cuDNN sub-library loads and agrees with cuDNN " +
                                        plugin::dotted_version(version)
                                  : problem,
                  evidence,
                  problem.empty() ? ""
                                  : "install one complete cuDNN release; remove other cuDNN copies from "
                                    "LD_LIBRARY_PATH (pip's nvidia-cudnn wheel and a system libcudnn9 mixed "
                                    "is the usual cause)",
                  {"library.cudnn.version"}});
}

}  // namespace strata::cudnn
