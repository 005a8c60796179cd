// Where the dynamic loader finds a soname: LD_LIBRARY_PATH, then
// /etc/ld.so.cache, then the system directories. Answers "which copies of
// libcudart.so.13 are on this machine's search path, and which one wins?"
// find_all_from() adds the RPATH/RUNPATH of the library that asks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probes/ld_so_cache.h"
#include "probes/probe_context.h"

namespace strata {

struct LibraryLocation {
    std::string path;       // as found: "/usr/local/cuda/lib64/libcudart.so.13"
    std::string real_path;  // symlinks resolved
    std::string via;        // "LD_LIBRARY_PATH entry 1", "ld.so.cache", "system directory"
};

class LibrarySearch {
public:
    explicit LibrarySearch(const ProbeContext& context);

    // Every copy, in the order the loader would try them; the first wins.
    // Copies that resolve to the same real file are listed once.
    std::vector<LibraryLocation> find_all(std::string_view soname) const;
    // The same, as seen by a library that needs `soname` (DT_NEEDED) or
    // dlopens it by name: its DT_RPATH first (when it has no DT_RUNPATH),
    // then LD_LIBRARY_PATH, then its DT_RUNPATH, then the cache and system
    // directories; $ORIGIN is the directory of `needing_path` (a machine path).
    std::vector<LibraryLocation> find_all_from(std::string_view soname, const std::string& needing_path,
                                               const std::vector<std::string>& rpath,
                                               const std::vector<std::string>& runpath) const;
    const std::vector<std::string>& ld_library_path() const { return ld_library_path_; }
    // LD_LIBRARY_PATH has an empty entry: the loader searches the working
    // directory, wherever strata (or the application) happens to be started.
    bool searches_working_directory() const { return searches_working_directory_; }
    const LdCache& cache() const { return cache_; }
    // "LD_LIBRARY_PATH (/a, /b), /etc/ld.so.cache, /lib/x86_64-linux-gnu, ..."
    std::string describe_order() const;

private:
    const ProbeContext& context_;
    std::vector<std::string> ld_library_path_;
    bool searches_working_directory_ = false;
    LdCache cache_;
};

// Strips the probe root from a real path so reports show machine paths.
std::string machine_path(const ProbeContext& context, const std::filesystem::path& path);

}  // namespace strata
