#include "strata/arch/dynamic.h"

namespace strata::arch {

namespace {

constexpr uint64_t dt_null = 0, dt_needed = 1, dt_soname = 14, dt_rpath = 15, dt_runpath = 29;
constexpr uint64_t entry_size = 16;  // Elf64_Dyn: d_tag, d_val

std::vector<std::string> split_search_path(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(':', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace

Expected<DynamicInfo> read_dynamic(const ElfFile& elf) {
    DynamicInfo info;
    const ElfSection* dynamic = nullptr;
    for (const ElfSection& section : elf.sections)
        if (section.type == elf_section_dynamic) dynamic = &section;
    if (!dynamic) return info;
    if (dynamic->link >= elf.sections.size())
        return Error{".dynamic links to section " + std::to_string(dynamic->link) + ", which does not exist"};
    Bytes strings = elf.sections[dynamic->link].contents;
    auto string_at = [&](uint64_t offset, const char* tag) -> Expected<std::string> {
        if (offset >= strings.size())
            return Error{std::string(".dynamic ") + tag + " string at " + hex(offset) +
                         " lies outside its string table (" + hex(strings.size()) + " bytes)"};
        size_t end = strings.find('\0', offset);
        if (end == Bytes::npos)
            return Error{std::string(".dynamic ") + tag + " string at " + hex(offset) + " is not terminated"};
        return std::string(strings.substr(offset, end - offset));
    };
    Bytes entries = dynamic->contents;
    for (uint64_t at = 0; at + entry_size <= entries.size(); at += entry_size) {
        uint64_t tag = load_le<uint64_t>(entries, at), value = load_le<uint64_t>(entries, at + 8);
        if (tag == dt_null) break;
        const char* name = tag == dt_needed    ? "DT_NEEDED"
                           : tag == dt_soname  ? "DT_SONAME"
                           : tag == dt_rpath   ? "DT_RPATH"
                           : tag == dt_runpath ? "DT_RUNPATH"
                                               : nullptr;
        if (!name) continue;
        auto text = string_at(value, name);
        if (!text) return Error{text.error()};
        if (tag == dt_needed) info.needed.push_back(*text);
        if (tag == dt_soname) info.soname = *text;
        if (tag == dt_rpath)
            for (std::string& entry : split_search_path(*text)) info.rpath.push_back(std::move(entry));
        if (tag == dt_runpath)
            for (std::string& entry : split_search_path(*text)) info.runpath.push_back(std::move(entry));
    }
    return info;
}

}  // namespace strata::arch
