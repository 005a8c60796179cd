// Which plugin files strata agrees to load: sshd's StrictModes rule, applied
// to the file, every directory above it, and the directory it was named
// through.
#include "plugins/plugin_trust.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "plugins/discovery.h"
#include "support/run_process.h"

using namespace strata;
namespace fs = std::filesystem;

namespace {

// A private directory (0700, like mkdtemp's) under /tmp, removed at the end.
struct Scratch {
    fs::path root;
    explicit Scratch(const std::string& name) : root(test::scratch_path(name)) {
        fs::remove_all(root);
        fs::create_directories(root);
        ::chmod(root.c_str(), 0700);
    }
    ~Scratch() { fs::remove_all(root); }
    fs::path plugin_in(const fs::path& directory, mode_t directory_mode) const {
        fs::create_directories(directory);
        ::chmod(directory.c_str(), directory_mode);
        fs::path file = directory / "libstrata_plugin_copy.so";
        fs::copy_file(test::test_plugin("ok"), file, fs::copy_options::overwrite_existing);
        ::chmod(file.c_str(), 0755);
        return file;
    }
};

std::string refusal_of(const fs::path& path) {
    return check_plugin_trust(path).refusal.value_or("(trusted)");
}

}  // namespace

TEST_CASE("a plugin in a private directory under a sticky, root-owned /tmp is trusted") {
    Scratch scratch("trust-ok");
    fs::path file = scratch.plugin_in(scratch.root / "plugins", 0755);
    TrustedPlugin trust = check_plugin_trust(file);
    CHECK_FALSE(trust.refusal);
    CHECK(trust.real_path == fs::canonical(file));
}

TEST_CASE("a plugin in a world-writable directory is refused, sticky bit or not") {
    Scratch scratch("trust-dirs");
    CHECK(refusal_of(scratch.plugin_in(scratch.root / "open", 0777)).find("writable by everyone") !=
          std::string::npos);
    std::string sticky = refusal_of(scratch.plugin_in(scratch.root / "sticky", 01777));
    CHECK(sticky.find("directory " + (scratch.root / "sticky").string() + " is writable by everyone") !=
          std::string::npos);
    CHECK(refusal_of(scratch.plugin_in(scratch.root / "group", 0775)).find("writable by its group") !=
          std::string::npos);
}

TEST_CASE("a writable directory anywhere above the plugin is refused") {
    Scratch scratch("trust-parent");
    fs::path parent = scratch.root / "writable-parent";
    fs::create_directories(parent);
    ::chmod(parent.c_str(), 0777);
    std::string why = refusal_of(scratch.plugin_in(parent / "plugins", 0755));
    CHECK(why.find("directory " + parent.string() + " is writable by everyone") != std::string::npos);
    CHECK(why.find("chmod go-w " + parent.string()) != std::string::npos);
}

TEST_CASE("a writable plugin file is refused") {
    Scratch scratch("trust-file");
    fs::path file = scratch.plugin_in(scratch.root / "plugins", 0755);
    ::chmod(file.c_str(), 0666);
    CHECK(refusal_of(file).find("file is writable by everyone") != std::string::npos);
}

TEST_CASE("a plugin or a directory owned by another user is refused") {
    if (::geteuid() != 0) {
        WARN("skipped: giving a file to another user needs root");
        return;
    }
    Scratch scratch("trust-owner");
    fs::path file = scratch.plugin_in(scratch.root / "plugins", 0755);
    REQUIRE(::chown(file.c_str(), 65534, 65534) == 0);
    CHECK(refusal_of(file).find("is owned by uid 65534, neither root nor you") != std::string::npos);
    REQUIRE(::chown(file.c_str(), 0, 0) == 0);
    REQUIRE(::chown((scratch.root / "plugins").c_str(), 65534, 65534) == 0);
    CHECK(refusal_of(file).find("directory " + (scratch.root / "plugins").string() +
                                " is owned by uid 65534") != std::string::npos);
}

TEST_CASE("a symlink in a writable directory is refused even when it points at a trusted plugin") {
    Scratch scratch("trust-symlink");
    fs::path trusted = scratch.plugin_in(scratch.root / "plugins", 0755);
    fs::path open = scratch.root / "open";
    fs::create_directories(open);
    ::chmod(open.c_str(), 0777);
    fs::create_symlink(trusted, open / "libstrata_plugin_link.so");
    CHECK(refusal_of(open / "libstrata_plugin_link.so").find("writable by everyone") != std::string::npos);
}

TEST_CASE("a world-writable --plugin-path directory refuses everything in it") {
    Scratch scratch("trust-plugin-path");
    scratch.plugin_in(scratch.root / "open", 0777);
    PluginSearchOptions options;
    options.include_builtin = false;
    options.paths = {(scratch.root / "open").string()};
    auto candidates = discover_plugins(options, test::strata_binary());
    REQUIRE(candidates.size() == 1);
    REQUIRE(candidates[0].refusal);
    CHECK(candidates[0].refusal->find("writable by everyone") != std::string::npos);
}

TEST_CASE("a bare file name is resolved against the working directory, never looked up by dlopen") {
    Scratch scratch("trust-bare");
    fs::path file = scratch.plugin_in(scratch.root / "plugins", 0755);
    fs::path before = fs::current_path();
    fs::current_path(scratch.root / "plugins");
    PluginSearchOptions options;
    options.include_builtin = false;
    options.paths = {"libstrata_plugin_copy.so"};
    auto candidates = discover_plugins(options, test::strata_binary());
    fs::current_path(before);
    REQUIRE(candidates.size() == 1);
    // An absolute path: dlopen opens exactly it, not a namesake on LD_LIBRARY_PATH.
    CHECK(candidates[0].path == fs::canonical(file).string());
    CHECK_FALSE(candidates[0].refusal);
}
