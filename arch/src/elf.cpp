#include "strata/arch/elf.h"

namespace strata::arch {

namespace {

constexpr uint64_t header_size = 64;
constexpr uint64_t section_header_size = 64;
constexpr uint64_t max_sections = 1 << 20;

}  // namespace

bool looks_like_elf(Bytes bytes) {
    return bytes.substr(0, 4) ==
           "\x7f"
           "ELF";
}

Expected<ElfFile> parse_elf(Bytes bytes) {
    if (!looks_like_elf(bytes)) return Error{"not an ELF file"};
    if (bytes.size() < header_size)
        return Error{"ELF header truncated (" + std::to_string(bytes.size()) + " bytes)"};
    if (bytes[4] != 2) return Error{"32-bit ELF is not supported (only ELF64)"};
    if (bytes[5] != 1) return Error{"big-endian ELF is not supported"};
    ElfFile elf;
    elf.osabi = static_cast<uint8_t>(bytes[7]);
    elf.abi_version = static_cast<uint8_t>(bytes[8]);
    elf.type = load_le<uint16_t>(bytes, 16);
    elf.machine = load_le<uint16_t>(bytes, 18);
    elf.flags = load_le<uint32_t>(bytes, 48);
    uint64_t shoff = load_le<uint64_t>(bytes, 40);
    uint16_t shentsize = load_le<uint16_t>(bytes, 58);
    uint64_t shnum = load_le<uint16_t>(bytes, 60);
    uint32_t shstrndx = load_le<uint16_t>(bytes, 62);
    if (shoff == 0) return elf;  // no section table (allowed; nothing to scan)
    if (shentsize != section_header_size)
        return Error{"section header size " + std::to_string(shentsize) + ", expected 64"};
    if (!in_bounds(bytes, shoff, section_header_size))
        return Error{"section table at " + hex(shoff) + " lies outside the file (" + hex(bytes.size()) +
                     " bytes)"};
    // Large section counts and string-table indexes live in section 0.
    if (shnum == 0) shnum = load_le<uint64_t>(bytes, shoff + 32);
    if (shstrndx == 0xffff) shstrndx = load_le<uint32_t>(bytes, shoff + 40);
    if (shnum > max_sections || shnum > (bytes.size() - shoff) / section_header_size)
        return Error{std::to_string(shnum) + " section headers at " + hex(shoff) +
                     " run past the end of the file"};

    struct Raw {
        uint32_t name, type;
        uint64_t flags, offset, size;
        uint32_t link;
        uint64_t address;
    };
    std::vector<Raw> raw(static_cast<size_t>(shnum));
    for (uint64_t i = 0; i < shnum; ++i) {
        uint64_t at = shoff + i * section_header_size;
        raw[i] = {load_le<uint32_t>(bytes, at),      load_le<uint32_t>(bytes, at + 4),
                  load_le<uint64_t>(bytes, at + 8),  load_le<uint64_t>(bytes, at + 24),
                  load_le<uint64_t>(bytes, at + 32), load_le<uint32_t>(bytes, at + 40),
                  load_le<uint64_t>(bytes, at + 16)};
        if (raw[i].type != elf_section_nobits && raw[i].type != 0 &&
            !in_bounds(bytes, raw[i].offset, raw[i].size))
            return Error{"section " + std::to_string(i) + " [" + hex(raw[i].offset) + ", +" +
                         hex(raw[i].size) + ") runs past the end of the file (" + hex(bytes.size()) +
                         " bytes)"};
    }
    // Sections without file contents (SHT_NULL, SHT_NOBITS) were not bounds-checked above,
    // so they can name nothing and hold no bytes.
    auto has_contents = [](const Raw& r) { return r.type != elf_section_nobits && r.type != 0; };
    Bytes names;
    if (shstrndx < shnum && has_contents(raw[shstrndx]))
        names = slice(bytes, raw[shstrndx].offset, raw[shstrndx].size);
    elf.sections.reserve(raw.size());
    for (const Raw& r : raw) {
        ElfSection section;
        if (r.name < names.size()) {
            size_t end = names.find('\0', r.name);
            section.name = std::string(names.substr(r.name, end == Bytes::npos ? Bytes::npos : end - r.name));
        }
        section.type = r.type;
        section.flags = r.flags;
        section.offset = r.offset;
        section.address = r.address;
        section.link = r.link;
        if (has_contents(r)) section.contents = slice(bytes, r.offset, r.size);
        elf.sections.push_back(std::move(section));
    }
    return elf;
}

Expected<LinkedSection> find_linked_section(const ElfFile& elf, uint32_t type, std::string_view name) {
    LinkedSection found;
    for (const ElfSection& section : elf.sections)
        if (section.type == type) found.section = &section;
    if (!found.section) return found;
    if (found.section->link >= elf.sections.size())
        return Error{std::string(name) + " links to section " + std::to_string(found.section->link) +
                     ", which does not exist"};
    found.strings = elf.sections[found.section->link].contents;
    return found;
}

Expected<std::string_view> string_in_table(Bytes strings, uint64_t offset) {
    if (offset >= strings.size())
        return Error{"string at " + hex(offset) + " lies outside its string table (" + hex(strings.size()) +
                     " bytes)"};
    size_t end = strings.find('\0', offset);
    if (end == Bytes::npos) return Error{"string at " + hex(offset) + " is not terminated"};
    return strings.substr(offset, end - offset);
}

}  // namespace strata::arch
