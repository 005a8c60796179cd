#include "frameworks/framework_scan.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "frameworks/build_records.h"
#include "frameworks/distributions.h"
#include "frameworks/framework_extensions.h"
#include "frameworks/framework_files.h"

namespace strata {

namespace fs = std::filesystem;

const char* known_frameworks_text() {
    return "PyTorch, JAX, TensorFlow, CuPy or ONNX Runtime";
}

namespace {

bool lists_dependency(const FrameworkInstall& install, const std::string& name) {
    return std::any_of(install.dependencies.begin(), install.dependencies.end(),
                       [&](const WheelDependency& existing) { return existing.name == name; });
}

// A dependency asked for with extras (torch 2.12 and later: cuda-toolkit[cublas,cudart,...]==13.0.3)
// brings the wheels those extras name: they are the framework's dependencies
// too, read from the installed metapackage's own Requires-Dist. An extra's
// wheel is as optional as the requirement that asked for it.
void add_requested_extras(const Requirement& requirement,
                          const std::map<std::string, const Distribution*>& by_name,
                          const std::map<std::string, std::string>& installed, FrameworkInstall& install) {
    auto meta = by_name.find(requirement.name);
    if (requirement.extras.empty() || meta == by_name.end()) return;
    for (const Requirement& wanted : meta->second->metadata.requires_dist) {
        if (wanted.name.rfind("nvidia-", 0) != 0 ||
            std::find(requirement.extras.begin(), requirement.extras.end(), wanted.extra) ==
                requirement.extras.end())
            continue;
        if (lists_dependency(install, wanted.name)) continue;
        auto it = installed.find(wanted.name);
        install.dependencies.push_back({wanted.name, wanted.specifier, requirement.extra,
                                        it == installed.end() ? "" : it->second,
                                        requirement.name + "[" + wanted.extra + "]"});
    }
}

// How a framework's Python code loads CUDA libraries from NVIDIA's wheels by
// path before its extension modules need them, so that those copies win over
// any the loader would find: cuda-pathfinder (CuPy 14) searches the wheels
// first; JAX's CUDA plugin runs _load_nvidia_libraries when it initialises.
// "" when it leaves the choice to the loader.
std::string wheel_preloader(const std::vector<const Distribution*>& dists,
                            const std::map<std::string, std::string>& installed) {
    for (const Distribution* dist : dists)
        for (const Requirement& requirement : dist->metadata.requires_dist)
            if (requirement.name == "cuda-pathfinder" && requirement.extra.empty() &&
                installed.count("cuda-pathfinder"))
                return "cuda-pathfinder";
    for (const Distribution* dist : dists)
        for (const std::string& file : dist->files)
            if (file.find("/jax_plugins/") != std::string::npos && file.ends_with("/__init__.py") &&
                read_text(file, 1 << 20).find("def _load_nvidia_libraries") != std::string::npos)
                return "the JAX plugin's _load_nvidia_libraries";
    return {};
}

// A function of the framework's top-level package that loads NVIDIA's wheels'
// libraries when called, which the framework itself does not call: ONNX
// Runtime's preload_dlls (onnxruntime/__init__.py, 1.21 and later). Read from
// the package's own __init__.py, as users find it: "onnxruntime.preload_dlls()".
std::string opt_in_preloader(const std::vector<const Distribution*>& dists, const std::string& site_dir) {
    for (const Distribution* dist : dists)
        for (const std::string& file : dist->files) {
            fs::path path(file);
            if (path.filename() != "__init__.py" || path.parent_path().parent_path() != fs::path(site_dir))
                continue;
            if (read_text(file, 1 << 20).find("\ndef preload_dlls(") != std::string::npos)
                return path.parent_path().filename().string() + ".preload_dlls()";
        }
    return {};
}

}  // namespace

std::vector<FrameworkInstall> scan_frameworks(const ProbeContext& context,
                                              const std::vector<PythonEnvironment>& environments) {
    std::vector<FrameworkInstall> out;
    std::map<std::string, int> ids;
    for (const PythonEnvironment& env : environments) {
        // Every distribution the environment can import, for dependency lookups.
        std::vector<Distribution> all;
        for (const std::string& dir : env.directories)
            for (Distribution& dist : read_distributions(dir)) all.push_back(std::move(dist));
        std::map<std::string, std::string> installed;  // name -> version (first wins, as imports do)
        std::map<std::string, const Distribution*> by_name;
        for (const Distribution& dist : all) {
            installed.emplace(dist.name, dist.metadata.version);
            by_name.emplace(dist.name, &dist);
        }

        // Group by framework, per directory (a framework lives in one place).
        std::map<std::pair<std::string, std::string>, std::vector<const Distribution*>> groups;
        std::vector<std::pair<std::string, std::string>> order;
        for (const Distribution& dist : all)
            if (const FrameworkKind* kind = classify_distribution(dist.name)) {
                auto key = std::make_pair(dist.site_dir, std::string(kind->id));
                if (!groups.count(key)) order.push_back(key);
                groups[key].push_back(&dist);
            }
        for (const auto& key : order) {
            const std::vector<const Distribution*>& dists = groups[key];
            const FrameworkKind* kind = classify_distribution(dists.front()->name);
            FrameworkInstall install;
            int count = ++ids[kind->id];
            install.id = count == 1 ? kind->id : std::string(kind->id) + "-" + std::to_string(count);
            install.name = kind->name;
            install.environment = env.label;
            install.site_dir = key.first;
            // Where a package's files were learnt, when not from its RECORD:
            // a walk of its directories is a guess a user should see.
            for (const Distribution* dist : dists)
                install.distributions.push_back(dist->metadata.name + " " + dist->metadata.version +
                                                (dist->file_list == "RECORD" || dist->file_list.empty()
                                                     ? ""
                                                     : " (files from " + dist->file_list + ")"));
            // The framework's own version: the package users import.
            const Distribution* primary = dists.front();
            for (const Distribution* dist : dists)
                if (dist->name == kind->id || dist->name == "jaxlib" || dist->name == "onnxruntime-gpu")
                    primary = dist;
            install.version = primary->metadata.version;
            install.distribution = primary->name;
            for (const Distribution* dist : dists)
                for (const Requirement& requirement : dist->metadata.requires_dist) {
                    // NVIDIA's wheels, and the framework's own parts (the PJRT
                    // plugin a jax-cuda plugin pins).
                    bool nvidia =
                        requirement.name.rfind("nvidia-", 0) == 0 || requirement.name == "cuda-toolkit";
                    if (!nvidia && classify_distribution(requirement.name) != kind) continue;
                    if (lists_dependency(install, requirement.name)) continue;
                    auto it = installed.find(requirement.name);
                    install.dependencies.push_back({requirement.name, requirement.specifier,
                                                    requirement.extra,
                                                    it == installed.end() ? "" : it->second, ""});
                    if (nvidia) add_requested_extras(requirement, by_name, installed, install);
                }
            install.wheel_preloader = wheel_preloader(dists, installed);
            install.opt_in_preloader = opt_in_preloader(dists, install.site_dir);
            read_build_record(*kind, install, dists);
            read_framework_files(context, install, dists, all);
            std::vector<std::string> names;
            for (const Distribution* dist : dists) names.push_back(dist->name);
            if (std::string(kind->id) == "jax") names.push_back("jax");  // packages ask for jax, not jaxlib
            install.extensions = read_framework_extensions(kind->id, dists, names, all, install.cuda_version);
            derive_cuda_from_binaries(install);
            out.push_back(std::move(install));
        }
    }
    return out;
}

}  // namespace strata
