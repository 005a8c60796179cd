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
    // For a host ELF: the containers (by file offset) whose SASS and PTX
    // define no kernel: nvcc's link stubs for a shared library (the CUDA
    // toolkit's libcufftw.so holds nothing else). Nothing in them is ever
    // launched, so they decide nothing, registered or not. Sorted.
    std::vector<uint64_t> kernel_less_containers;
};

// Whether the listing's SASS and PTX all lie in kernel-less containers (and
// there is some): device code of link stubs alone, which nothing launches.
// False for a file with no SASS or PTX at all (LTO-IR only): that is judged,
// and has no image for any GPU.
bool link_stubs_only(const BinaryListing& listing);

// Whether the image lies in one of the listing's kernel-less containers.
bool in_kernel_less_container(const BinaryListing& listing, const FatbinImage& image);

// Errors are one line and name the structure at fault; warnings (a malformed
// container inside an otherwise readable file) are in scan.warnings.
Expected<BinaryListing> read_binary(Bytes bytes);

}  // namespace strata::arch
