// `strata arch`'s input side: walks files and directory trees, reads each
// binary with arch/, and collects per-file results (or per-file errors).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/arch/binary.h"
#include "strata/arch/mapped_file.h"

namespace strata {

struct ScannedFile {
    std::string path;
    std::shared_ptr<arch::MappedFile> file;  // keeps image payload views valid
    arch::BinaryListing listing;
    std::string error;  // non-empty: the file could not be read or parsed
};

struct ScanResult {
    std::vector<ScannedFile> files;  // binaries and unreadable files, in path order
    size_t skipped = 0;              // files that are not ELF, archives or fat binaries
};

// Throws UsageError when a path given does not exist.
ScanResult scan_paths(const std::vector<std::string>& paths);

}  // namespace strata
