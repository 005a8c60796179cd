#include "probes/library_search.h"

#include <array>
#include <set>
#include <system_error>

#include "probes/text_util.h"

namespace strata {

namespace {

// glibc's trusted directories on Debian/Ubuntu (multiarch) and RHEL (lib64).
constexpr std::array<std::string_view, 6> system_directories = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"};

}  // namespace

std::string machine_path(const ProbeContext& context, const std::filesystem::path& path) {
    if (context.is_live()) return path.string();
    std::string root = context.root().lexically_normal().string();
    std::string text = path.lexically_normal().string();
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    if (text.compare(0, root.size(), root) == 0 && (text.size() == root.size() || text[root.size()] == '/'))
        return text.size() == root.size() ? "/" : text.substr(root.size());
    return text;
}

LibrarySearch::LibrarySearch(const ProbeContext& context) : context_(context) {
    if (auto value = context.env("LD_LIBRARY_PATH")) ld_library_path_ = split_loader_path_list(*value);
    for (const std::string& entry : ld_library_path_) searches_working_directory_ |= entry == ".";
    // The loader reads a relative entry against the working directory.
    if (context.is_live())
        for (std::string& entry : ld_library_path_)
            if (!entry.empty() && entry.front() != '/') {
                std::error_code ec;
                auto absolute = std::filesystem::absolute(entry, ec);
                if (!ec) entry = absolute.lexically_normal().string();
            }
    if (auto bytes = context.read("/etc/ld.so.cache", 64 << 20))
        if (auto parsed = parse_ld_so_cache(*bytes)) cache_ = std::move(*parsed);
}

std::vector<LibraryLocation> LibrarySearch::find_all(std::string_view soname) const {
    std::vector<LibraryLocation> out;
    std::set<std::string> seen;
    auto consider = [&](const std::string& file, std::string via) {
        std::error_code ec;
        std::filesystem::path on_disk = context_.at(file);
        if (!std::filesystem::exists(on_disk, ec)) return;
        std::filesystem::path real = std::filesystem::canonical(on_disk, ec);
        std::string real_text = ec ? file : machine_path(context_, real);
        if (!seen.insert(real_text).second) return;
        out.push_back({file, real_text, std::move(via)});
    };
    for (size_t i = 0; i < ld_library_path_.size(); ++i)
        consider(ld_library_path_[i] + "/" + std::string(soname),
                 "LD_LIBRARY_PATH entry " + std::to_string(i + 1));
    for (const LdCacheEntry& entry : cache_.entries)
        if (entry.soname == soname && ld_cache_entry_matches_this_arch(entry))
            consider(entry.path, "ld.so.cache");
    for (std::string_view directory : system_directories)
        consider(std::string(directory) + "/" + std::string(soname), "system directory");
    return out;
}

std::vector<LibraryLocation> LibrarySearch::find_all_from(std::string_view soname,
                                                          const std::string& needing_path,
                                                          const std::vector<std::string>& rpath,
                                                          const std::vector<std::string>& runpath) const {
    std::string origin = std::filesystem::path(needing_path).parent_path().string();
    auto expand = [&](std::string entry) {
        for (const char* token : {"${ORIGIN}", "$ORIGIN"})
            for (size_t at = entry.find(token); at != std::string::npos; at = entry.find(token))
                entry.replace(at, std::string_view(token).size(), origin);
        return std::filesystem::path(entry).lexically_normal().string();
    };
    std::vector<LibraryLocation> out;
    std::set<std::string> seen;
    auto add = [&](LibraryLocation location) {
        if (seen.insert(location.real_path).second) out.push_back(std::move(location));
    };
    auto search_entries = [&](const std::vector<std::string>& entries, const std::string& tag) {
        std::string file_name = std::filesystem::path(needing_path).filename().string();
        for (size_t i = 0; i < entries.size(); ++i) {
            std::string file = expand(entries[i]) + "/" + std::string(soname);
            std::error_code ec;
            std::filesystem::path on_disk = context_.at(file);
            if (!std::filesystem::exists(on_disk, ec)) continue;
            std::filesystem::path real = std::filesystem::canonical(on_disk, ec);
            add({file, ec ? file : machine_path(context_, real),
                 tag + " entry " + std::to_string(i + 1) + " of " + file_name + " (" + entries[i] + ")"});
        }
    };
    std::vector<LibraryLocation> rest = find_all(soname);
    // glibc ignores DT_RPATH when the same object has DT_RUNPATH.
    if (runpath.empty()) search_entries(rpath, "DT_RPATH");
    for (const LibraryLocation& location : rest)
        if (location.via.rfind("LD_LIBRARY_PATH", 0) == 0) add(location);
    search_entries(runpath, "DT_RUNPATH");
    for (const LibraryLocation& location : rest) add(location);
    return out;
}

std::string LibrarySearch::describe_order() const {
    std::string out;
    if (!ld_library_path_.empty()) {
        out += "LD_LIBRARY_PATH (";
        for (size_t i = 0; i < ld_library_path_.size(); ++i) out += (i ? ", " : "") + ld_library_path_[i];
        out += "), ";
    }
    out += "/etc/ld.so.cache";
    for (std::string_view directory : system_directories) out += ", " + std::string(directory);
    return out;
}

}  // namespace strata
