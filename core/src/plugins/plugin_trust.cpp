#include "plugins/plugin_trust.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace strata {

namespace {

namespace fs = std::filesystem;

std::string octal_mode(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

bool trusted_owner(uid_t owner) {
    return owner == 0 || owner == ::geteuid();
}

std::string owner_problem(const fs::path& path, const struct stat& info, const char* what) {
    return std::string(what) + " " + path.string() + " is owned by uid " + std::to_string(info.st_uid) +
           ", neither root nor you (uid " + std::to_string(::geteuid()) +
           "); whoever owns it could run code as you";
}

// Each directory from `directory` up to "/". `holds_plugin` marks the first:
// the directory the plugin lies in, where a sticky bit is not enough (anyone
// may add a file there).
std::optional<std::string> directory_chain_problem(fs::path directory) {
    bool holds_plugin = true;
    for (;;) {
        struct stat info {};
        if (::stat(directory.c_str(), &info) != 0)
            return "cannot check directory " + directory.string() + ": " + std::strerror(errno);
        if (!trusted_owner(info.st_uid)) return owner_problem(directory, info, "directory");
        bool writable_by_others = (info.st_mode & (S_IWGRP | S_IWOTH)) != 0;
        bool guarded_by_sticky_bit = (info.st_mode & S_ISVTX) && info.st_uid == 0 && !holds_plugin;
        if (writable_by_others && !guarded_by_sticky_bit)
            return "directory " + directory.string() + " is writable by " +
                   ((info.st_mode & S_IWOTH) ? "everyone" : "its group") + " (mode " +
                   octal_mode(info.st_mode) +
                   "); anyone who can write it could swap what strata loads from it. Fix with: chmod go-w " +
                   directory.string();
        if (directory == directory.root_path() || !directory.has_relative_path()) return std::nullopt;
        directory = directory.parent_path();
        holds_plugin = false;
    }
}

}  // namespace

TrustedPlugin check_plugin_trust(const fs::path& given) {
    TrustedPlugin out;
    std::error_code error;
    fs::path absolute_given = fs::absolute(given, error).lexically_normal();
    if (error) {
        out.refusal = "cannot resolve the path: " + error.message();
        return out;
    }
    out.real_path = fs::canonical(absolute_given, error);
    if (error) {
        out.real_path = absolute_given;
        out.refusal = "cannot resolve the path: " + error.message();
        return out;
    }
    struct stat info {};
    if (::stat(out.real_path.c_str(), &info) != 0) {
        out.refusal = std::string("cannot stat: ") + std::strerror(errno);
        return out;
    }
    if (!S_ISREG(info.st_mode)) {
        out.refusal = "not a regular file";
        return out;
    }
    if (!trusted_owner(info.st_uid)) {
        out.refusal = owner_problem(out.real_path, info, "file");
        return out;
    }
    if (info.st_mode & (S_IWGRP | S_IWOTH)) {
        out.refusal = std::string("file is writable by ") +
                      ((info.st_mode & S_IWOTH) ? "everyone" : "its group") + " (mode " +
                      octal_mode(info.st_mode) + "); anyone who can write it could run code as you. " +
                      "Fix with: chmod go-w " + out.real_path.string();
        return out;
    }
    // The directories of the file itself, and those of the name it was found
    // by: a symlink in a writable directory can be pointed anywhere.
    if (auto problem = directory_chain_problem(out.real_path.parent_path())) {
        out.refusal = *problem;
        return out;
    }
    if (absolute_given.parent_path() != out.real_path.parent_path())
        if (auto problem = directory_chain_problem(absolute_given.parent_path())) out.refusal = *problem;
    return out;
}

std::optional<std::string> check_directory_trust(const fs::path& directory) {
    std::error_code error;
    fs::path real = fs::canonical(directory, error);
    if (error) return "cannot resolve " + directory.string() + ": " + error.message();
    if (auto problem = directory_chain_problem(real)) return problem;
    fs::path given = fs::absolute(directory, error).lexically_normal();
    if (!error && given != real) return directory_chain_problem(given);
    return std::nullopt;
}

std::optional<std::string> check_library_directory_trust(const fs::path& directory) {
    if (auto problem = check_directory_trust(directory)) return problem;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(directory, error)) {
        std::string name = entry.path().filename().string();
        if (name.find(".so") == std::string::npos) continue;
        TrustedPlugin library = check_plugin_trust(entry.path());
        if (library.refusal) return entry.path().string() + ": " + *library.refusal;
    }
    if (error) return "cannot list " + directory.string() + ": " + error.message();
    return std::nullopt;
}

}  // namespace strata
