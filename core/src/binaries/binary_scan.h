// `strata arch`'s input side: walks files and directory trees, reads each
// binary with arch/, and collects per-file results (or per-file errors). One
// file is mapped at a time: everything the report needs is read while it is,
// so 200 copies of a 500 MB library cost one library's pages, not 200.
#pragma once

#include <string>
#include <vector>

#include "strata/arch/binary.h"

namespace strata {

// What an image's contents say, read (decompressed) while its file is mapped.
struct ImageDetails {
    std::string toolkit;     // SASS: the CUDA toolkit that built it
    std::string ptx_target;  // PTX: its .target line
    std::string error;       // the contents could not be read
};

struct ScannedFile {
    std::string path;
    // Image payload views are cleared (the file is unmapped); sizes stay.
    arch::BinaryListing listing;
    std::vector<ImageDetails> details;  // one per image, when asked for
    std::string error;                  // non-empty: the file could not be read or parsed
};

struct ScanResult {
    std::vector<ScannedFile> files;  // binaries and unreadable files, in path order
    size_t skipped = 0;              // files that are not ELF, archives or fat binaries
};

// A path given that does not exist, loops or cannot be read is listed with
// its reason; so is a directory that cannot be read, or a file that changed
// size while it was read.
ScanResult scan_paths(const std::vector<std::string>& paths, bool read_details);

}  // namespace strata
