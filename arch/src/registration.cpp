#include "strata/arch/registration.h"

#include <algorithm>
#include <unordered_map>

#include "strata/arch/bytes.h"
#include "strata/arch/expected.h"

namespace strata::arch {

namespace {

constexpr uint64_t kWrapperSize = 24;
constexpr uint64_t kMaxWrappers = 1u << 20;   // a library has thousands; a crafted segment is cut here
constexpr uint64_t kMaxPrelinked = 1u << 16;  // entries of a version-2 list
constexpr uint32_t kRelativeX86 = 8;          // R_X86_64_RELATIVE
constexpr uint32_t kRelativeAarch64 = 1027;   // R_AARCH64_RELATIVE

// Addends of RELATIVE relocations by the address they fill.
std::unordered_map<uint64_t, uint64_t> relative_addends(const ElfFile& elf) {
    std::unordered_map<uint64_t, uint64_t> out;
    for (const ElfSection& section : elf.sections) {
        if (section.type != elf_section_rela) continue;
        Bytes rela = section.contents;
        for (uint64_t at = 0; at + 24 <= rela.size(); at += 24) {
            uint64_t info = load_le<uint64_t>(rela, at + 8);
            uint32_t type = static_cast<uint32_t>(info & 0xffffffff);
            if (type == kRelativeX86 || type == kRelativeAarch64)
                out.emplace(load_le<uint64_t>(rela, at), load_le<uint64_t>(rela, at + 16));
        }
    }
    return out;
}

struct Mapped {
    const ElfSection* section = nullptr;
    uint64_t within = 0;
};

Mapped map_address(const ElfFile& elf, uint64_t address) {
    for (const ElfSection& section : elf.sections) {
        if (section.address == 0 || section.contents.empty()) continue;
        if (address >= section.address && address - section.address < section.contents.size())
            return {&section, address - section.address};
    }
    return {};
}

}  // namespace

Registration registered_fatbins(const ElfFile& elf) {
    Registration out;
    const ElfSection* segment = nullptr;
    for (const ElfSection& section : elf.sections)
        if (section.name == ".nvFatBinSegment") segment = &section;
    if (!segment) return out;
    out.has_segment = true;
    auto addends = relative_addends(elf);
    // A pointer stored at `address`: in place, else its relocation's addend.
    auto pointer_at = [&](const ElfSection& section, uint64_t within) -> uint64_t {
        uint64_t value = load_le<uint64_t>(section.contents, within);
        if (value != 0) return value;
        auto it = addends.find(section.address + within);
        return it == addends.end() ? 0 : it->second;
    };
    auto add_container = [&](uint64_t address, const std::string& what) {
        Mapped mapped = map_address(elf, address);
        if (!mapped.section) {
            out.warnings.push_back(what + " points at " + hex(address) + ", outside every section");
            return;
        }
        // With -rdc each object's wrapper names its relocatable fat binary
        // (__nv_relfatbin): an input to the device link done at build time.
        // The runtime loads the device-linked result, never these.
        if (mapped.section->name == "__nv_relfatbin") {
            ++out.relocatable;
            return;
        }
        uint64_t offset = mapped.section->offset + mapped.within;
        if (std::find(out.offsets.begin(), out.offsets.end(), offset) == out.offsets.end())
            out.offsets.push_back(offset);
    };
    Bytes bytes = segment->contents;
    uint64_t count = std::min<uint64_t>(bytes.size() / kWrapperSize, kMaxWrappers);
    for (uint64_t i = 0; i < count; ++i) {
        uint64_t at = i * kWrapperSize;
        std::string what = ".nvFatBinSegment wrapper " + std::to_string(i);
        uint32_t magic = load_le<uint32_t>(bytes, at);
        if (magic != fatbin_wrapper_magic) {
            out.warnings.push_back(what + " has magic " + hex(magic) + ", not " + hex(fatbin_wrapper_magic));
            continue;
        }
        uint32_t version = load_le<uint32_t>(bytes, at + 4);
        if (uint64_t data = pointer_at(*segment, at + 8)) add_container(data, what);
        // Version 2: a null-terminated list of prelinked fat binaries.
        if (version != 2) continue;
        uint64_t list = pointer_at(*segment, at + 16);
        if (list == 0) continue;
        Mapped mapped = map_address(elf, list);
        if (!mapped.section) continue;  // in .bss until the runtime fills it: nothing prelinked in the file
        for (uint64_t k = 0; k < kMaxPrelinked; ++k) {
            uint64_t within = mapped.within + 8 * k;
            if (within + 8 > mapped.section->contents.size()) break;
            uint64_t entry = pointer_at(*mapped.section, within);
            if (entry == 0) break;
            add_container(entry, what + " prelinked entry " + std::to_string(k));
        }
    }
    return out;
}

}  // namespace strata::arch
