#include "binaries/binary_scan.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "model/usage_error.h"

namespace strata {

namespace {

void scan_file(const std::string& path, ScanResult& out) {
    auto mapped = arch::MappedFile::open(path);
    if (!mapped) {
        out.files.push_back({path, nullptr, {}, mapped.error()});
        return;
    }
    auto file = std::make_shared<arch::MappedFile>(std::move(*mapped));
    if (arch::sniff_format(file->bytes()) == arch::BinaryFormat::not_binary) {
        ++out.skipped;
        return;
    }
    auto listing = arch::read_binary(file->bytes());
    if (!listing) {
        out.files.push_back({path, nullptr, {}, listing.error()});
        return;
    }
    out.files.push_back({path, std::move(file), std::move(*listing), ""});
}

}  // namespace

ScanResult scan_paths(const std::vector<std::string>& paths) {
    ScanResult out;
    for (const std::string& path : paths) {
        std::error_code ec;
        auto status = std::filesystem::status(path, ec);
        if (ec || !std::filesystem::exists(status)) {
            // Listed with its reason (a symlink loop is not "no such file"),
            // so --json still describes every path that could be read; the
            // exit status is 2.
            out.files.push_back({path, nullptr, {}, ec ? ec.message() : "No such file or directory"});
            continue;
        }
        if (!std::filesystem::is_directory(status)) {
            scan_file(path, out);
            continue;
        }
        std::vector<std::string> found;
        auto options = std::filesystem::directory_options::skip_permission_denied;
        for (auto it = std::filesystem::recursive_directory_iterator(path, options, ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            // Regular files only: a symlink to a library is the same library.
            if (it->is_regular_file(ec) && !it->is_symlink(ec)) found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        for (const std::string& file : found) scan_file(file, out);
    }
    return out;
}

}  // namespace strata
