#include "plugins/discovery.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "model/usage_error.h"

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

std::optional<std::string> plugin_file_refusal(const std::filesystem::path& file) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) return std::string("cannot stat: ") + std::strerror(errno);
    if (!S_ISREG(info.st_mode)) return std::string("not a regular file");
    if (info.st_mode & (S_IWGRP | S_IWOTH)) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
        return std::string("file is writable by ") + ((info.st_mode & S_IWOTH) ? "everyone" : "its group") +
               " (mode " + mode + "); anyone who can write it could run code as you. Fix with: chmod go-w " +
               file.string();
    }
    return std::nullopt;
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
        std::error_code ec;
        auto real = std::filesystem::canonical(file, ec);
        std::string key = ec ? file.string() : real.string();
        if (!seen.insert(key).second) continue;
        out.push_back({file.string(), plugin_name_from_file(file), plugin_file_refusal(file)});
    }
    return out;
}

}  // namespace strata
