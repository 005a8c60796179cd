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
    auto dynamic = find_linked_section(elf, elf_section_dynamic, ".dynamic");
    if (!dynamic) return Error{dynamic.error()};
    if (!dynamic->section) return info;
    Bytes entries = dynamic->section->contents;
    for (uint64_t at = 0; at + entry_size <= entries.size(); at += entry_size) {
        uint64_t tag = load_le<uint64_t>(entries, at), value = load_le<uint64_t>(entries, at + 8);
        if (tag == dt_null) break;
        const char* name = tag == dt_needed    ? "DT_NEEDED"
                           : tag == dt_soname  ? "DT_SONAME"
                           : tag == dt_rpath   ? "DT_RPATH"
                           : tag == dt_runpath ? "DT_RUNPATH"
                                               : nullptr;
        if (!name) continue;
        auto found = string_in_table(dynamic->strings, value);
        if (!found) return Error{std::string(".dynamic ") + name + " " + found.error()};
        std::string text(*found);
        if (tag == dt_needed) info.needed.push_back(text);
        if (tag == dt_soname) info.soname = text;
        if (tag == dt_rpath)
            for (std::string& entry : split_search_path(text)) info.rpath.push_back(std::move(entry));
        if (tag == dt_runpath)
            for (std::string& entry : split_search_path(text)) info.runpath.push_back(std::move(entry));
    }
    return info;
}

}  // namespace strata::arch
