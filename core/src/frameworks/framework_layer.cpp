#include "frameworks/framework_layer.h"

#include <filesystem>

#include "frameworks/framework_scan.h"
#include "probes/probes.h"

namespace strata {

namespace {

namespace fs = std::filesystem;

// ", imports 1204 framework symbol(s), 3 not exported"; "" when it imports none.
std::string imports_summary(const FrameworkExtension& extension) {
    if (extension.framework_imports == 0 && extension.missing_libraries.empty()) return "";
    std::string text = ", imports " + std::to_string(extension.framework_imports) + " framework symbol(s)";
    if (!extension.missing_symbols.empty())
        text += ", " + std::to_string(extension.missing_symbols.size()) + " not exported";
    if (!extension.missing_libraries.empty())
        text += ", needs " + std::to_string(extension.missing_libraries.size()) + " missing librar(y/ies)";
    return text;
}

void add_framework_facts(const std::vector<PythonEnvironment>& environments,
                         const std::vector<FrameworkInstall>& installs, Report& report) {
    std::vector<std::string> described;
    for (const PythonEnvironment& env : environments) {
        std::string text = env.label;
        if (!env.interpreter.empty() && env.label.find(env.interpreter) == std::string::npos)
            text += " " + env.interpreter;
        if (!env.python_version.empty()) text += " (Python " + env.python_version + ")";
        for (const std::string& dir : env.directories) text += " " + dir;
        described.push_back(text);
    }
    add_fact(report, Layer::framework, "framework.environments", Json(described),
             "python -c (sys.path, site.getsitepackages)");
    for (const FrameworkInstall& install : installs) {
        std::string prefix = "framework." + install.id + ".";
        std::string metadata = "dist-info METADATA";
        auto fact = [&](const std::string& key, Json value, const std::string& source) {
            add_fact(report, Layer::framework, prefix + key, std::move(value), source);
        };
        fact("name", install.name, metadata);
        fact("version", install.version, metadata);
        fact("environment", install.environment, "strata");
        fact("location", install.site_dir, "strata");
        fact("distributions", Json(install.distributions), metadata);
        fact("cuda_build", install.cuda_build ? install.cuda_version : "none: " + install.build_kind,
             install.cuda_build ? install.cuda_source : "its build record");
        // A `>=` floor is a requirement, not a build fact: another key says so.
        std::string suffix = install.library_versions_are_floors ? "_required_min" : "_build";
        std::string source =
            install.library_versions_are_floors ? "Requires-Dist floor" : "build record or pin";
        if (!install.cudnn_version.empty()) fact("cudnn" + suffix, install.cudnn_version, source);
        if (!install.nccl_version.empty()) fact("nccl" + suffix, install.nccl_version, source);
        std::vector<std::string> dependencies;
        for (const WheelDependency& dependency : install.dependencies)
            dependencies.push_back(dependency.name + dependency.specifier +
                                   (dependency.extra.empty() ? "" : " [" + dependency.extra + "]") +
                                   (dependency.via.empty() ? "" : " (through " + dependency.via + ")") +
                                   ": " +
                                   (dependency.installed.empty() ? "not installed" : dependency.installed));
        fact("dependencies", Json(dependencies), metadata + " Requires-Dist");
        std::vector<std::string> files;
        for (const std::string& path : install.device_code_files)
            files.push_back(fs::path(path).lexically_relative(install.site_dir).string());
        fact("sass", Json(install.sass), "arch/ (its shared libraries' fat binaries)");
        fact("ptx", Json(install.ptx), "arch/ (its shared libraries' fat binaries)");
        fact("device_code_files", Json(files), "arch/");
        std::vector<std::string> libraries;
        for (const LibraryNeed& need : install.libraries) {
            if (need.candidates.empty()) {
                libraries.push_back(need.soname + " -> not found");
                continue;
            }
            const LibraryLocation& winner = need.candidates.front();
            libraries.push_back(need.soname + " -> " + winner.real_path + " (" + winner.via +
                                (need.versions.front().empty() ? "" : ", " + need.versions.front()) + ")");
        }
        fact("libraries", Json(libraries), "ELF DT_NEEDED/RPATH/RUNPATH, LD_LIBRARY_PATH, ld.so.cache");
        if (!install.extensions.empty()) {
            std::vector<std::string> extensions;
            for (const FrameworkExtension& extension : install.extensions)
                extensions.push_back(extension.name + " " + extension.version + ": " +
                                     std::to_string(extension.device_code_files.size()) +
                                     " file(s) with device code" +
                                     (extension.cuda_major.empty() ? "" : ", CUDA " + extension.cuda_major) +
                                     imports_summary(extension));
            fact("extensions", Json(extensions),
                 "packages requiring it (METADATA), arch/, and their .dynsym against the framework's");
            // Every import that fails, mangled as the loader prints it: what
            // a user searches for, and what a test compares with the loader.
            std::vector<std::string> missing;
            for (const FrameworkExtension& extension : install.extensions)
                for (const MissingImport& import : extension.missing_symbols)
                    if (missing.size() < 200)
                        missing.push_back(extension.name + " " + extension.version + ": " + import.file +
                                          ": " + import.name);
            if (!missing.empty())
                fact("extension_missing_symbols", Json(missing),
                     "the extensions' .dynsym against the framework's (the first 200)");
        }
    }
}

}  // namespace

FrameworkTargets framework_targets(const FrameworkOptions& options, const GpuDiscovery& present) {
    FrameworkTargets targets;
    const std::vector<uint32_t>& given =
        !options.sms.empty() || !present.gpus.empty() ? options.sms : options.sms_without_gpu;
    if (!given.empty()) {
        targets.gpus_given = true;
        for (size_t i = 0; i < given.size(); ++i)
            targets.gpus.push_back({static_cast<unsigned>(i), "", given[i]});
    } else {
        targets.gpus = present.gpus;
    }
    targets.driver_given = !options.driver.empty();
    targets.driver_version = targets.driver_given ? options.driver : present.driver_version;
    return targets;
}

FrameworkLayer scan_framework_layer(const ProbeContext& context, const FrameworkOptions& options) {
    FrameworkLayer layer;
    layer.environments = find_python_environments(context, options.environments);
    layer.installs = scan_frameworks(context, layer.environments);
    return layer;
}

void judge_framework_layer(const FrameworkLayer& layer, const FrameworkTargets& targets, Report& report) {
    add_framework_facts(layer.environments, layer.installs, report);
    rule_frameworks(layer.environments, layer.installs, targets, report);
}

}  // namespace strata
