// The dynamic symbol table reader and the framework-interface rules built on
// it, on a real library of this machine (libstdc++) and on mangled names
// that PyTorch's libraries export (copied from torch 2.10's and 2.15's
// .dynsym), and on broken tables.
#include "frameworks/framework_abi.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "strata/arch/elf.h"
#include "strata/arch/symbols.h"

using namespace strata;

namespace {

// The libstdc++ this test runs with, from its own mappings.
std::string loaded_libstdcxx() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        size_t at = line.find('/');
        if (at != std::string::npos && line.find("libstdc++.so") != std::string::npos) return line.substr(at);
    }
    return {};
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

const arch::DynamicSymbol* find(const std::vector<arch::DynamicSymbol>& symbols, std::string_view name) {
    auto it = std::find_if(symbols.begin(), symbols.end(),
                           [&](const arch::DynamicSymbol& symbol) { return symbol.name == name; });
    return it == symbols.end() ? nullptr : &*it;
}

// The file offset of section `index`'s header field at `field` (ELF64).
uint64_t section_header_field(const std::string& bytes, size_t index, uint64_t field) {
    uint64_t table = 0;
    std::memcpy(&table, bytes.data() + 0x28, 8);  // e_shoff
    return table + index * 64 + field;
}

size_t dynsym_index(const arch::ElfFile& elf) {
    for (size_t i = 0; i < elf.sections.size(); ++i)
        if (elf.sections[i].type == arch::elf_section_dynsym) return i;
    return 0;
}

}  // namespace

TEST_CASE("read_dynamic_symbols: what a real library exports and imports") {
    std::string path = loaded_libstdcxx();
    REQUIRE(!path.empty());
    std::string bytes = read_file(path);
    auto elf = arch::parse_elf(bytes);
    REQUIRE(elf);
    auto symbols = arch::read_dynamic_symbols(*elf);
    REQUIRE(symbols);
    CHECK(symbols->size() > 1000);
    const arch::DynamicSymbol* terminate = find(*symbols, "_ZSt9terminatev");  // std::terminate()
    REQUIRE(terminate);
    CHECK(terminate->defined);
    const arch::DynamicSymbol* malloc_import = find(*symbols, "malloc");  // from libc: needed
    REQUIRE(malloc_import);
    CHECK(!malloc_import->defined);
    CHECK(!malloc_import->weak);
    const arch::DynamicSymbol* profiler = find(*symbols, "__gmon_start__");  // weak: may stay unresolved
    REQUIRE(profiler);
    CHECK(!profiler->defined);
    CHECK(profiler->weak);
    // The name is the string table's, without the version the tools print after '@'.
    CHECK(std::none_of(symbols->begin(), symbols->end(), [](const arch::DynamicSymbol& symbol) {
        return symbol.name.find('@') != std::string_view::npos;
    }));
}

TEST_CASE("read_dynamic_symbols: broken tables are refused with the entry named") {
    std::string bytes = read_file(loaded_libstdcxx());
    auto elf = arch::parse_elf(bytes);
    REQUIRE(elf);
    size_t index = dynsym_index(*elf);
    REQUIRE(index != 0);
    uint64_t table = elf->sections[index].offset;
    SECTION("a name outside the string table") {
        // The first global entry (a local one is skipped, its name unread).
        size_t entry = 1;
        while (static_cast<uint8_t>(bytes[table + 24 * entry + 4]) >> 4 != 1) ++entry;
        std::string broken = bytes;
        uint32_t far = 0x7fffffff;
        std::memcpy(broken.data() + table + 24 * entry, &far, 4);  // st_name
        auto reparsed = arch::parse_elf(broken);
        REQUIRE(reparsed);
        auto symbols = arch::read_dynamic_symbols(*reparsed);
        REQUIRE(!symbols);
        CHECK(symbols.error() ==
              ".dynsym entry " + std::to_string(entry) +
                  ": string at 0x7fffffff lies outside its string table (" +
                  arch::hex(reparsed->sections[reparsed->sections[index].link].contents.size()) + " bytes)");
    }
    SECTION("a string table link to no section") {
        std::string broken = bytes;
        uint32_t link = 0xffff;
        std::memcpy(broken.data() + section_header_field(bytes, index, 40), &link, 4);  // sh_link
        auto reparsed = arch::parse_elf(broken);
        REQUIRE(reparsed);
        auto symbols = arch::read_dynamic_symbols(*reparsed);
        REQUIRE(!symbols);
        CHECK(symbols.error() == ".dynsym links to section 65535, which does not exist");
    }
    SECTION("a size that is not whole entries") {
        std::string broken = bytes;
        uint64_t size = elf->sections[index].contents.size() - 5;
        std::memcpy(broken.data() + section_header_field(bytes, index, 32), &size, 8);  // sh_size
        auto reparsed = arch::parse_elf(broken);
        REQUIRE(reparsed);
        auto symbols = arch::read_dynamic_symbols(*reparsed);
        REQUIRE(!symbols);
        CHECK(symbols.error().find("not a whole number of 24-byte entries") != std::string::npos);
    }
}

TEST_CASE("outermost_scope: the namespace of every kind of mangled name") {
    // Functions, const methods, vtables, typeinfo, thunks, local statics and
    // guard variables, as torch's libraries export them.
    CHECK(outermost_scope("_ZN3c104cuda9SetDeviceEi") == "c10");
    CHECK(outermost_scope("_ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_jb") == "c10");
    CHECK(outermost_scope("_ZNK2at10TensorBase8data_ptrIfEEPT_v") == "at");
    CHECK(outermost_scope("_ZNR5torch3jit6ObjectclEv") == "torch");
    CHECK(outermost_scope("_ZTVN3c1010TensorImplE") == "c10");
    CHECK(outermost_scope("_ZTIN5torch8autograd4NodeE") == "torch");
    CHECK(outermost_scope("_ZThn16_N5torch8autograd12CppNode_baseD1Ev") == "torch");
    CHECK(outermost_scope("_ZTv0_n24_N3c1010TensorImplD0Ev") == "c10");
    CHECK(outermost_scope("_ZZN3c1010TensorImpl4sizeElE4name") == "c10");
    CHECK(outermost_scope("_ZGVZN2at4cuda16getCurrentStreamEaE5cache") == "at");
    CHECK(outermost_scope("_ZN6caffe28TypeMeta13addTypeMetaDataIfEEtv") == "caffe2");
    // Not the framework's: the standard library, its ABI namespace, a global function.
    CHECK(outermost_scope("_ZSt9terminatev") == "std");
    CHECK(outermost_scope("_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7reserveEm") == "std");
    CHECK(outermost_scope("_ZN9__gnu_cxx27__verbose_terminate_handlerEv") == "__gnu_cxx");
    CHECK(outermost_scope("_Z16THPVariable_WrapN2at10TensorBaseE") == "THPVariable_Wrap");
    // Not mangled, or not followed: nothing.
    for (const char* name : {"", "_Z", "_ZN", "memcpy", "_ZTh_", "_ZThn_N3c10E", "_ZTv0_", "_ZN12abE",
                             "_Z999999999999x", "_ZNT_3fooE", "_ZZZZZZZZZZZZZZZZZZZZZZZZZZ3fooE"})
        CHECK(outermost_scope(name).empty());
}

TEST_CASE("is_framework_symbol: PyTorch's C++ namespaces and its C interface") {
    const FrameworkAbi* torch = framework_abi("torch");
    REQUIRE(torch);
    CHECK(is_framework_symbol(*torch, "_ZN3c104cuda9SetDeviceEi"));
    CHECK(is_framework_symbol(*torch, "_ZTVN2at6TensorE"));
    CHECK(is_framework_symbol(*torch, "aoti_torch_aten_narrow"));  // the stable C shim torchvision 0.29 uses
    CHECK(is_framework_symbol(*torch, "THPVariableClass"));        // torch/_C's Python bindings
    CHECK(!is_framework_symbol(*torch, "_ZSt9terminatev"));
    CHECK(!is_framework_symbol(*torch, "_ZN4absl12lts_202308028StrSplitEv"));
    CHECK(!is_framework_symbol(*torch, "cudaMalloc"));
    CHECK(!is_framework_symbol(*torch, "_Z10c10_helperv"));  // a global function, not c10::
    // Frameworks whose extensions bind through a versioned C API are not checked.
    CHECK(framework_abi("jax") == nullptr);
    CHECK(framework_abi("onnxruntime") == nullptr);
}

TEST_CASE("readable_symbol: demangled where it is safe") {
    CHECK(readable_symbol("_ZN3c104cuda9SetDeviceEi") == "c10::cuda::SetDevice(int)");
    CHECK(readable_symbol("aoti_torch_aten_narrow") == "aoti_torch_aten_narrow");
    CHECK(readable_symbol("_ZN3c10") == "_ZN3c10");  // does not demangle: printed as it is
    std::string deep = "_Z" + std::string(5000, 'P') + "i";
    CHECK(readable_symbol(deep) == deep);  // too long to hand to the demangler
}
