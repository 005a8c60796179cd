#include "strata/arch/symbols.h"

namespace strata::arch {

namespace {

constexpr uint64_t entry_size = 24;  // Elf64_Sym: st_name, st_info, st_other, st_shndx, st_value, st_size
constexpr uint8_t binding_global = 1, binding_weak = 2, binding_unique = 10;  // STB_GNU_UNIQUE
constexpr uint8_t visibility_default = 0, visibility_protected = 3;
constexpr uint16_t section_undefined = 0;  // SHN_UNDEF

}  // namespace

Expected<std::vector<DynamicSymbol>> read_dynamic_symbols(const ElfFile& elf) {
    std::vector<DynamicSymbol> out;
    const ElfSection* table = nullptr;
    for (const ElfSection& section : elf.sections)
        if (section.type == elf_section_dynsym) table = &section;
    if (!table) return out;
    if (table->link >= elf.sections.size())
        return Error{".dynsym links to section " + std::to_string(table->link) + ", which does not exist"};
    if (table->contents.size() % entry_size != 0)
        return Error{".dynsym is " + hex(table->contents.size()) + " bytes, not a whole number of " +
                     std::to_string(entry_size) + "-byte entries"};
    Bytes strings = elf.sections[table->link].contents;
    Bytes entries = table->contents;
    for (uint64_t at = entry_size; at + entry_size <= entries.size(); at += entry_size) {
        uint32_t name_offset = load_le<uint32_t>(entries, at);
        uint8_t info = load_le<uint8_t>(entries, at + 4);
        uint8_t visibility = load_le<uint8_t>(entries, at + 5) & 0x3;
        uint16_t section = load_le<uint16_t>(entries, at + 6);
        uint8_t binding = info >> 4;
        if (binding != binding_global && binding != binding_weak && binding != binding_unique) continue;
        if (name_offset >= strings.size())
            return Error{".dynsym entry " + std::to_string(at / entry_size) + " names string " +
                         hex(name_offset) + ", outside its string table (" + hex(strings.size()) + " bytes)"};
        size_t end = strings.find('\0', name_offset);
        if (end == Bytes::npos)
            return Error{".dynsym entry " + std::to_string(at / entry_size) + ": its name at " +
                         hex(name_offset) + " is not terminated"};
        DynamicSymbol symbol;
        symbol.name = strings.substr(name_offset, end - name_offset);
        if (symbol.name.empty()) continue;
        symbol.weak = binding == binding_weak;
        // A hidden or internal definition is not visible to other objects:
        // for them, the library does not define it.
        symbol.defined = section != section_undefined &&
                         (visibility == visibility_default || visibility == visibility_protected);
        if (section != section_undefined && !symbol.defined) continue;
        out.push_back(symbol);
    }
    return out;
}

}  // namespace strata::arch
