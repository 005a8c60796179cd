// Builds a throw-away directory tree that stands in for a machine's root, so
// probes can be pointed at synthetic /proc, /dev, /etc and library folders.
#pragma once

#include <filesystem>
#include <string>

namespace strata::test {

class FixtureTree {
public:
    FixtureTree();
    ~FixtureTree();
    FixtureTree(const FixtureTree&) = delete;
    FixtureTree& operator=(const FixtureTree&) = delete;

    const std::filesystem::path& root() const { return root_; }
    // Writes a file at a machine path ("/proc/driver/nvidia/version").
    void write(const std::string& machine_path, const std::string& content = "");
    // A relative symlink at `machine_path` pointing to `target`.
    void symlink(const std::string& machine_path, const std::string& target);

private:
    std::filesystem::path root_;
};

}  // namespace strata::test
