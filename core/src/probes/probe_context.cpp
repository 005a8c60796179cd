#include "probes/probe_context.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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
    // Opened without blocking (a FIFO standing in for a file must not hang
    // strata), then only a regular file is read. /proc and /sys files are
    // regular but report size 0, so the loop reads until EOF or the limit.
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return std::nullopt;
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return std::nullopt;
    }
    std::string data;
    char buffer[65536];
    while (data.size() < limit) {
        size_t want = std::min(sizeof buffer, limit - data.size());
        ssize_t got = ::read(fd, buffer, want);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            ::close(fd);
            return std::nullopt;
        }
        if (got == 0) break;
        data.append(buffer, static_cast<size_t>(got));
    }
    ::close(fd);
    return data;
}

}  // namespace strata
