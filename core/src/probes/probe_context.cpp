#include "probes/probe_context.h"

#include <unistd.h>

#include <fstream>
#include <system_error>

#include "probes/library_search.h"

extern char** environ;

namespace strata {

ProbeContext ProbeContext::live() {
    std::map<std::string, std::string> environment;
    for (char** entry = environ; entry && *entry; ++entry) {
        std::string_view text(*entry);
        size_t eq = text.find('=');
        if (eq == std::string_view::npos) continue;
        environment.emplace(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
    }
    return ProbeContext("/", std::move(environment));
}

ProbeContext::ProbeContext(std::filesystem::path root, std::map<std::string, std::string> environment)
    : root_(std::move(root)), environment_(std::move(environment)) {}

std::filesystem::path ProbeContext::at(std::string_view machine_path) const {
    std::filesystem::path relative(machine_path);
    return root_ / relative.relative_path();
}

std::optional<std::string> ProbeContext::read(std::string_view machine_path, size_t limit) const {
    return read_file(at(machine_path), limit);
}

bool ProbeContext::exists(std::string_view machine_path) const {
    std::error_code ec;
    return std::filesystem::exists(at(machine_path), ec);
}

const LibrarySearch& ProbeContext::library_search() const {
    if (!library_search_) library_search_ = std::make_shared<const LibrarySearch>(*this);
    return *library_search_;
}

std::optional<std::string> ProbeContext::env(std::string_view name) const {
    auto it = environment_.find(std::string(name));
    if (it == environment_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::string> read_file(const std::filesystem::path& path, size_t limit) {
    // /proc and /sys files report size 0, so read until EOF rather than stat.
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string data;
    char buffer[4096];
    while (data.size() < limit && in.read(buffer, sizeof buffer), in.gcount() > 0)
        data.append(buffer, static_cast<size_t>(in.gcount()));
    if (in.bad()) return std::nullopt;
    if (data.size() > limit) data.resize(limit);
    return data;
}

}  // namespace strata
