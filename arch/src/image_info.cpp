#include "strata/arch/image_info.h"

#include <cctype>

#include "strata/arch/elf.h"

namespace strata::arch {

namespace {

// The first whitespace-separated token after `directive` at the start of a line.
std::string directive_value(std::string_view text, std::string_view directive) {
    size_t pos = 0;
    while ((pos = text.find(directive, pos)) != std::string_view::npos) {
        bool line_start = pos == 0 || text[pos - 1] == '\n';
        pos += directive.size();
        if (!line_start || pos >= text.size() || !std::isspace(static_cast<unsigned char>(text[pos])))
            continue;
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
        size_t end = pos;
        while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != ',')
            ++end;
        return std::string(text.substr(pos, end - pos));
    }
    return {};
}

struct Note {
    std::string_view name;
    uint32_t type;
    Bytes desc;
};

std::vector<Note> read_notes(Bytes section) {
    std::vector<Note> notes;
    uint64_t at = 0;
    auto align4 = [](uint64_t v) { return (v + 3) & ~uint64_t{3}; };
    while (in_bounds(section, at, 12)) {
        uint32_t namesz = load_le<uint32_t>(section, at), descsz = load_le<uint32_t>(section, at + 4);
        uint32_t type = load_le<uint32_t>(section, at + 8);
        uint64_t name_at = at + 12, desc_at = name_at + align4(namesz);
        if (!in_bounds(section, name_at, namesz) || !in_bounds(section, desc_at, descsz)) break;
        std::string_view name = slice(section, name_at, namesz);
        while (!name.empty() && name.back() == '\0') name.remove_suffix(1);
        notes.push_back({name, type, slice(section, desc_at, descsz)});
        at = desc_at + align4(descsz);
    }
    return notes;
}

}  // namespace

std::optional<PtxHeader> parse_ptx_header(std::string_view text) {
    PtxHeader header{directive_value(text, ".version"), directive_value(text, ".target")};
    if (header.isa_version.empty()) return std::nullopt;
    return header;
}

uint32_t cubin_sm_from_flags(uint32_t flags, uint8_t abi_version) {
    return abi_version >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
}

Expected<CubinInfo> read_cubin_info(Bytes cubin) {
    auto elf = parse_elf(cubin);
    if (!elf) return Error{"cubin: " + elf.error()};
    if (elf->machine != elf_machine_cuda)
        return Error{"not a cubin (e_machine " + std::to_string(elf->machine) + ", expected 190)"};
    CubinInfo info;
    info.abi_version = elf->abi_version;
    info.elf_type = elf->type;
    info.sm = cubin_sm_from_flags(elf->flags, elf->abi_version);
    for (const ElfSection& section : elf->sections) {
        if (section.type != elf_section_note) continue;
        for (const Note& note : read_notes(section.contents)) {
            if (note.name != "NVIDIA Corp") continue;
            if (note.type == 2000) {  // tkinfo: "Cuda compilation tools, release 13.0, V13.0.88", producer...
                size_t v = note.desc.find(", V");
                if (v != Bytes::npos) {
                    size_t end = v + 3;
                    while (
                        end < note.desc.size() &&
                        (std::isdigit(static_cast<unsigned char>(note.desc[end])) || note.desc[end] == '.'))
                        ++end;
                    info.toolkit = std::string(note.desc.substr(v + 3, end - v - 3));
                }
                for (std::string_view producer : {"ptxas", "nvlink", "nvJitLink", "nvrtc"})
                    if (note.desc.find(std::string(producer) + '\0') != Bytes::npos && info.producer.empty())
                        info.producer = std::string(producer);
            } else if (note.type == 1000 && note.desc.size() >= 8 && info.toolkit.empty()) {
                uint32_t version = load_le<uint32_t>(note.desc, 4);  // toolkit x 10
                info.toolkit = std::to_string(version / 10) + "." + std::to_string(version % 10);
            }
        }
    }
    return info;
}

}  // namespace strata::arch
