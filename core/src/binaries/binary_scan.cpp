#include "binaries/binary_scan.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "strata/arch/fatbin.h"
#include "strata/arch/image_info.h"
#include "strata/arch/mapped_file.h"

namespace strata {

namespace {

ImageDetails details_of(const arch::FatbinImage& image) {
    ImageDetails out;
    if (image.kind != arch::ImageKind::sass && image.kind != arch::ImageKind::ptx) return out;
    auto contents = arch::image_contents(image);
    if (!contents) {
        out.error = contents.error();
        return out;
    }
    if (image.kind == arch::ImageKind::ptx) {
        if (auto header = arch::parse_ptx_header(*contents)) out.ptx_target = header->target;
    } else if (auto info = arch::read_cubin_info(*contents)) {
        out.toolkit = info->toolkit;
    } else {
        out.error = info.error();
    }
    return out;
}

// `named`: the user named this file; one found in a directory that is not a
// binary is skipped, a named one is an error (a text file given to `arch
// --sm` said "0 file(s) with device code" and exited 0).
void scan_file(const std::string& path, bool read_details, bool named, ScanResult& out) {
    auto file = arch::MappedFile::open(path);
    if (!file) {
        out.files.push_back({path, {}, {}, file.error()});
        return;
    }
    if (arch::sniff_format(file->bytes()) == arch::BinaryFormat::not_binary) {
        if (named)
            out.files.push_back({path, {}, {}, "not an ELF file, static archive, cubin or fat binary"});
        else
            ++out.skipped;
        return;
    }
    auto listing = arch::read_binary(file->bytes());
    ScannedFile scanned{path, {}, {}, ""};
    if (!listing) {
        scanned.error = listing.error();
    } else if (listing->scan.images.empty() && !listing->scan.warnings.empty()) {
        // Fat binaries that are all corrupt: not "a file without device code".
        const auto& warnings = listing->scan.warnings;
        scanned.error =
            "no fat binary of it can be read: " + warnings.front() +
            (warnings.size() > 1 ? " (and " + std::to_string(warnings.size() - 1) + " more)" : "");
    } else {
        scanned.listing = std::move(*listing);
        if (read_details)
            for (const auto& image : scanned.listing.scan.images)
                scanned.details.push_back(details_of(image));
        for (auto& image : scanned.listing.scan.images) image.payload = {};  // the mapping goes next
    }
    // Read beyond a shrunken file's end: zeros were read, not the file.
    if (file->changed_while_read()) scanned = {path, {}, {}, "the file was truncated while it was read"};
    out.files.push_back(std::move(scanned));
}

// Every regular file under `root`, depth first; symlinks are not followed (a
// symlink to a library is the same library). A directory that cannot be read
// is reported, not taken for an empty one.
void walk_directory(const std::filesystem::path& root, std::vector<std::string>& found,
                    std::vector<ScannedFile>& unreadable) {
    std::vector<std::filesystem::path> pending{root};
    while (!pending.empty()) {
        std::filesystem::path directory = std::move(pending.back());
        pending.pop_back();
        std::error_code ec;
        std::filesystem::directory_iterator it(directory, ec), end;
        for (; !ec && it != end; it.increment(ec)) {
            std::error_code type_error;
            auto status = it->symlink_status(type_error);
            if (std::filesystem::is_directory(status))
                pending.push_back(it->path());
            else if (std::filesystem::is_regular_file(status))
                found.push_back(it->path().string());
        }
        if (ec) unreadable.push_back({directory.string(), {}, {}, "cannot read directory: " + ec.message()});
    }
}

}  // namespace

ScanResult scan_paths(const std::vector<std::string>& paths, bool read_details) {
    ScanResult out;
    for (const std::string& path : paths) {
        std::error_code ec;
        auto status = std::filesystem::status(path, ec);
        if (ec || !std::filesystem::exists(status)) {
            // Listed with its reason (a symlink loop is not "no such file"),
            // so --json still describes every path that could be read; the
            // exit status is 2.
            out.files.push_back({path, {}, {}, ec ? ec.message() : "No such file or directory"});
            continue;
        }
        if (!std::filesystem::is_directory(status)) {
            scan_file(path, read_details, true, out);
            continue;
        }
        std::vector<std::string> found;
        std::vector<ScannedFile> unreadable;
        walk_directory(path, found, unreadable);
        std::sort(found.begin(), found.end());
        for (const std::string& file : found) scan_file(file, read_details, false, out);
        for (ScannedFile& file : unreadable) out.files.push_back(std::move(file));
    }
    return out;
}

}  // namespace strata
