// Reads any file that can carry device code: an ELF host binary (executable,
// shared library, object), a bare cubin, a raw .fatbin, or a static archive
// of objects. Everything else is "not a binary", which callers skip.
#pragma once

#include <string>
#include <vector>

#include "strata/arch/fatbin.h"
#include "strata/arch/registration.h"

namespace strata::arch {

enum class BinaryFormat { elf, cubin, fatbin, archive, not_binary };

std::string_view binary_format_name(BinaryFormat format);

// Decides from the first bytes only.
BinaryFormat sniff_format(Bytes bytes);

struct BinaryListing {
    BinaryFormat format = BinaryFormat::not_binary;
    FatbinScan scan;  // images from every container (archive members prefix their section names)
    // For a host ELF: the containers the CUDA runtime registers at load time
    // (.nvFatBinSegment). Empty for cubins, raw fat binaries, archives and
    // ELF files without that segment.
    Registration registration;
};

// Errors are one line and name the structure at fault; warnings (a malformed
// container inside an otherwise readable file) are in scan.warnings.
Expected<BinaryListing> read_binary(Bytes bytes);

}  // namespace strata::arch
