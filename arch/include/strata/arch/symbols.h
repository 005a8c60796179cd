// The dynamic symbol table (.dynsym) of an ELF shared library: the symbols it
// exports and the ones it needs from the libraries it is loaded with. With
// both, strata can tell without loading anything whether a package compiled
// against a framework finds every symbol it imports in the framework that is
// installed beside it (the "undefined symbol: _ZN3c10..." import failure).
#pragma once

#include <string_view>
#include <vector>

#include "strata/arch/elf.h"
#include "strata/arch/expected.h"

namespace strata::arch {

struct DynamicSymbol {
    std::string_view name;  // points into the file's string table: valid while its bytes are
    bool defined = false;   // st_shndx != SHN_UNDEF, with default or protected visibility
    bool weak = false;      // STB_WEAK: an undefined weak symbol may stay unresolved
};

// The global and weak symbols of .dynsym (local ones and the null entry are
// left out), in table order. An ELF without .dynsym reads as none; a table
// whose size, string table link or name offsets are out of bounds is an
// error naming the entry.
Expected<std::vector<DynamicSymbol>> read_dynamic_symbols(const ElfFile& elf);

}  // namespace strata::arch
