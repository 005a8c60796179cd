// Finding plugin files: the built-in directory next to the strata binary
// (lib/strata/plugins relative to the install or build tree), directories or
// files given with --plugin-path, and STRATA_PLUGIN_PATH (colon-separated).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace strata {

struct PluginSearchOptions {
    bool include_builtin = true;
    std::vector<std::string> paths;  // --plugin-path entries, then STRATA_PLUGIN_PATH's
};

struct PluginCandidate {
    std::string path;                    // absolute, symlinks resolved
    std::string name;                    // from the file name until the plugin says its own
    std::optional<std::string> refusal;  // why strata will not load it
};

// <executable's directory>/../lib/strata/plugins
std::filesystem::path builtin_plugin_directory(const std::filesystem::path& executable);

// Throws UsageError for a given path that does not exist or cannot be read.
std::vector<PluginCandidate> discover_plugins(const PluginSearchOptions& options,
                                              const std::filesystem::path& executable);

// "libstrata_plugin_cudnn.so" -> "cudnn"
std::string plugin_name_from_file(const std::filesystem::path& file);

}  // namespace strata
