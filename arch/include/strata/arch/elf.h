// A reader for ELF64 little-endian files: executables, shared libraries,
// relocatable objects and bare cubins. It validates the header and section
// table against the file's size and hands out section contents as views.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strata/arch/bytes.h"
#include "strata/arch/expected.h"

namespace strata::arch {

inline constexpr uint16_t elf_machine_cuda = 190;  // EM_CUDA
inline constexpr uint32_t elf_section_progbits = 1;
inline constexpr uint32_t elf_section_note = 7;
inline constexpr uint32_t elf_section_nobits = 8;
inline constexpr uint32_t elf_section_dynamic = 6;
inline constexpr uint32_t elf_section_dynsym = 11;
inline constexpr uint32_t elf_section_rela = 4;
inline constexpr uint64_t elf_flag_execinstr = 0x4;

struct ElfSection {
    std::string name;
    uint32_t type = 0;
    uint64_t flags = 0;
    uint64_t offset = 0;   // in the file
    uint64_t address = 0;  // sh_addr: where it is mapped (pointers in the file are these)
    uint32_t link = 0;     // sh_link: for .dynamic, the index of its string table
    Bytes contents;        // empty for SHT_NOBITS
};

struct ElfFile {
    uint16_t type = 0;  // 1 ET_REL, 2 ET_EXEC, 3 ET_DYN
    uint16_t machine = 0;
    uint8_t osabi = 0;
    uint8_t abi_version = 0;
    uint32_t flags = 0;
    std::vector<ElfSection> sections;
};

// True when the bytes start with the ELF magic (of any class).
bool looks_like_elf(Bytes bytes);

// Parses a whole ELF64 LE file; errors name the structure and offset at fault.
Expected<ElfFile> parse_elf(Bytes bytes);

// A section that names its string table by sh_link (.dynamic, .dynsym), with
// that table's bytes. `section` is null when the file has no section of the type.
struct LinkedSection {
    const ElfSection* section = nullptr;
    Bytes strings;
};
// The last section of `type` (the one the loader would use) and its linked
// string table; an error, prefixed with `name`, when the link names no section.
Expected<LinkedSection> find_linked_section(const ElfFile& elf, uint32_t type, std::string_view name);

// The NUL-terminated string at `offset` of a string table; the error ("string
// at 0x10 lies outside its string table (8 bytes)", "... is not terminated")
// leaves saying which entry asked to the caller.
Expected<std::string_view> string_in_table(Bytes strings, uint64_t offset);

}  // namespace strata::arch
