#include "support/fixture_tree.h"

#include <cstdlib>
#include <fstream>

namespace strata::test {

FixtureTree::FixtureTree() {
    char pattern[] = "/tmp/strata-fixture-XXXXXX";
    root_ = ::mkdtemp(pattern);
}

FixtureTree::~FixtureTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
}

void FixtureTree::write(const std::string& machine_path, const std::string& content) {
    std::filesystem::path path = root_ / std::filesystem::path(machine_path).relative_path();
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << content;
}

void FixtureTree::symlink(const std::string& machine_path, const std::string& target) {
    std::filesystem::path path = root_ / std::filesystem::path(machine_path).relative_path();
    std::filesystem::create_directories(path.parent_path());
    std::filesystem::create_symlink(target, path);
}

}  // namespace strata::test
