// Where probes read the machine from. Tests point `root` at a fixture tree
// and pass their own environment, so every probe runs on synthetic machines.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

class ProbeContext {
public:
    // The live machine: root "/" and this process's environment.
    static ProbeContext live();
    ProbeContext(std::filesystem::path root, std::map<std::string, std::string> environment);

    // An absolute machine path ("/proc/driver/nvidia/version") under the root.
    std::filesystem::path at(std::string_view machine_path) const;
    // The file's contents, at most `limit` bytes; nullopt when unreadable.
    std::optional<std::string> read(std::string_view machine_path, size_t limit = 1 << 20) const;
    bool exists(std::string_view machine_path) const;
    std::optional<std::string> env(std::string_view name) const;
    const std::filesystem::path& root() const { return root_; }
    bool is_live() const { return root_ == "/"; }

private:
    std::filesystem::path root_;
    std::map<std::string, std::string> environment_;
};

// Reads at most `limit` bytes of a file; nullopt when it cannot be opened.
std::optional<std::string> read_file(const std::filesystem::path& path, size_t limit = 1 << 20);

}  // namespace strata
