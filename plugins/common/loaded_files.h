// Which files of a library this process really loaded: every object the
// dynamic loader has mapped whose name starts with one of the prefixes,
// symlinks resolved. Reported as library.<plugin>.loaded.<n> facts, from which
// the core's rules find every other copy on the search path and say which
// one won and why.
#pragma once

#include <link.h>

#include <climits>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "reporter.h"

namespace strata::plugin {

inline std::vector<std::string> loaded_files(const std::vector<std::string>& prefixes) {
    struct Search {
        const std::vector<std::string>* prefixes;
        std::set<std::string> found;
    } search{&prefixes, {}};
    dl_iterate_phdr(
        [](struct dl_phdr_info* info, size_t, void* data) {
            auto* s = static_cast<Search*>(data);
            if (!info->dlpi_name || !*info->dlpi_name) return 0;
            std::string path = info->dlpi_name;
            std::string base = path.substr(path.rfind('/') + 1);
            for (const std::string& prefix : *s->prefixes) {
                if (base.rfind(prefix, 0) != 0) continue;
                char resolved[PATH_MAX];
                s->found.insert(realpath(path.c_str(), resolved) ? resolved : path);
                break;
            }
            return 0;
        },
        &search);
    return {search.found.begin(), search.found.end()};
}

inline void report_loaded_files(const Reporter& report, const std::string& plugin,
                                const std::vector<std::string>& prefixes) {
    auto files = loaded_files(prefixes);
    for (size_t i = 0; i < files.size(); ++i)
        report.fact("library." + plugin + ".loaded." + std::to_string(i), files[i], "dl_iterate_phdr");
}

// "13.1.0" from 130100 (cuBLAS, cuDNN 9: major*10000 + minor*100 + patch).
inline std::string dotted_version(long long version) {
    return std::to_string(version / 10000) + "." + std::to_string((version / 100) % 100) + "." +
           std::to_string(version % 100);
}

}  // namespace strata::plugin
