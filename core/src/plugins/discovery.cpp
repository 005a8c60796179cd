#include "plugins/discovery.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "model/usage_error.h"
#include "plugins/plugin_trust.h"

namespace strata {

namespace {

bool is_shared_library(const std::filesystem::path& file) {
    return file.extension() == ".so";
}

void check_readable(const std::string& path) {
    if (::access(path.c_str(), R_OK) != 0)
        throw UsageError("plugin path '" + path + "': " + std::strerror(errno));
}

}  // namespace

std::filesystem::path builtin_plugin_directory(const std::filesystem::path& executable) {
    return (executable.parent_path() / ".." / "lib" / "strata" / "plugins").lexically_normal();
}

std::string plugin_name_from_file(const std::filesystem::path& file) {
    std::string name = file.stem().string();
    for (std::string_view prefix : {"libstrata_plugin_", "libstrata_", "lib"}) {
        if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size()) {
            name.erase(0, prefix.size());
            break;
        }
    }
    return name;
}

std::vector<PluginCandidate> discover_plugins(const PluginSearchOptions& options,
                                              const std::filesystem::path& executable) {
    std::vector<std::filesystem::path> files;
    auto add_directory = [&](const std::filesystem::path& directory) {
        std::vector<std::filesystem::path> found;
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(directory, ec))
            if (is_shared_library(entry.path())) found.push_back(entry.path());
        if (ec) throw UsageError("plugin path '" + directory.string() + "': " + ec.message());
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    };
    if (options.include_builtin) {
        std::error_code ec;
        auto builtin = builtin_plugin_directory(executable);
        if (std::filesystem::is_directory(builtin, ec)) add_directory(builtin);
    }
    for (const std::string& path : options.paths) {
        check_readable(path);
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            add_directory(path);
        else
            files.emplace_back(path);
    }
    std::vector<PluginCandidate> out;
    std::set<std::string> seen;
    for (const auto& file : files) {
        // Loaded by its resolved absolute path, never by a name dlopen would
        // look up on its own search path.
        TrustedPlugin trust = check_plugin_trust(file);
        if (!seen.insert(trust.real_path.string()).second) continue;
        out.push_back({trust.real_path.string(), plugin_name_from_file(file), trust.refusal});
    }
    return out;
}

}  // namespace strata
