// The dynamic section of an ELF shared library or executable: the sonames it
// needs and where the loader looks for them (DT_RPATH, DT_RUNPATH), so
// strata can say which copy of libcudnn.so.9 a framework's library will load.
#pragma once

#include <string>
#include <vector>

#include "strata/arch/elf.h"
#include "strata/arch/expected.h"

namespace strata::arch {

struct DynamicInfo {
    std::string soname;                // DT_SONAME, "" when absent
    std::vector<std::string> needed;   // DT_NEEDED, in order
    std::vector<std::string> rpath;    // DT_RPATH entries, unexpanded ("$ORIGIN/../lib")
    std::vector<std::string> runpath;  // DT_RUNPATH entries, unexpanded
};

// An ELF without a .dynamic section (an object, a static executable) reads as
// an empty DynamicInfo; a .dynamic whose string offsets or string table are
// out of bounds is an error naming the entry.
Expected<DynamicInfo> read_dynamic(const ElfFile& elf);

}  // namespace strata::arch
