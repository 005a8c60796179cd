// Whether a plugin file may be loaded. strata runs as root on production
// nodes and a plugin runs as whoever runs strata, so a plugin is loaded only
// when nobody else could have written it or swapped it: the rule sshd applies
// to its key files (StrictModes), applied to the file, to every directory
// above it, and to the directory it was named through.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace strata {

struct TrustedPlugin {
    std::filesystem::path real_path;     // absolute, no symlinks: what dlopen is given
    std::optional<std::string> refusal;  // why it must not be loaded; nullopt when trusted
};

// `given` is the path as found (an entry of a plugin directory, or a file
// named with --plugin-path). Trusted when the resolved file is a regular
// file owned by root or by the user running strata and writable by no one
// else, and each directory above it (and above `given`) is owned by root or
// that user and writable by no one else. A root-owned sticky directory such as
// /tmp is accepted above another directory, where its sticky bit stops others
// from renaming what lies below, but not as the plugin's own directory.
TrustedPlugin check_plugin_trust(const std::filesystem::path& given);

// The same rule for a directory whose contents strata will run, import or
// load (a Python environment's site-packages, whose .pth files run at every
// start; a library directory put first on the loader's path): it and every
// directory above it owned by root or the user running strata and writable
// by no one else (a root-owned sticky directory is accepted above it).
// nullopt when trusted, else why not.
std::optional<std::string> check_directory_trust(const std::filesystem::path& directory);

// A directory of libraries strata will put first on its workers' loader
// path (bench --side-by-side, rollout --compat-driver): the directory as
// above, and every shared library in it (a file or a link: what it resolves
// to) as a plugin file. nullopt when trusted, else why not.
std::optional<std::string> check_library_directory_trust(const std::filesystem::path& directory);

}  // namespace strata
