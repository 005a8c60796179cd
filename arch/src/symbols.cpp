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
    auto table = find_linked_section(elf, elf_section_dynsym, ".dynsym");
    if (!table) return Error{table.error()};
    if (!table->section) return out;
    Bytes entries = table->section->contents;
    if (entries.size() % entry_size != 0)
        return Error{".dynsym is " + hex(entries.size()) + " bytes, not a whole number of " +
                     std::to_string(entry_size) + "-byte entries"};
    for (uint64_t at = entry_size; at + entry_size <= entries.size(); at += entry_size) {
        uint32_t name_offset = load_le<uint32_t>(entries, at);
        uint8_t info = load_le<uint8_t>(entries, at + 4);
        uint8_t visibility = load_le<uint8_t>(entries, at + 5) & 0x3;
        uint16_t section = load_le<uint16_t>(entries, at + 6);
        uint8_t binding = info >> 4;
        if (binding != binding_global && binding != binding_weak && binding != binding_unique) continue;
        auto name = string_in_table(table->strings, name_offset);
        if (!name) return Error{".dynsym entry " + std::to_string(at / entry_size) + ": " + name.error()};
        DynamicSymbol symbol;
        symbol.name = *name;
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
