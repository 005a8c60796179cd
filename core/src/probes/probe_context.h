// Where probes read the machine from. Tests point `root` at a fixture tree
// and pass their own environment, so every probe runs on synthetic machines.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

class LibrarySearch;

class ProbeContext {
public:
    // The live machine: root "/" and this process's environment.
    static ProbeContext live();
    ProbeContext(std::filesystem::path root, std::map<std::string, std::string> environment);
    // Not copyable or movable: the cached LibrarySearch refers back to this object.
    ProbeContext(const ProbeContext&) = delete;
    ProbeContext& operator=(const ProbeContext&) = delete;

    // An absolute machine path ("/proc/driver/nvidia/version") under the root.
    std::filesystem::path at(std::string_view machine_path) const;
    // The file's contents, at most `limit` bytes; nullopt when unreadable.
    std::optional<std::string> read(std::string_view machine_path, size_t limit = 1 << 20) const;
    bool exists(std::string_view machine_path) const;
    std::optional<std::string> env(std::string_view name) const;
    const std::filesystem::path& root() const { return root_; }
    bool is_live() const { return root_ == "/"; }
    // The loader's search path on this machine, read once (ld.so.cache is
    // parsed on first use) and shared by every probe that asks.
    const LibrarySearch& library_search() const;

private:
    std::filesystem::path root_;
    std::map<std::string, std::string> environment_;
    mutable std::shared_ptr<const LibrarySearch> library_search_;
};

// Reads at most `limit` bytes of a file; nullopt when it cannot be opened.
std::optional<std::string> read_file(const std::filesystem::path& path, size_t limit = 1 << 20);

}  // namespace strata
