// Which dynamic symbols belong to a framework's C++ (and C) interface, so
// that a package built against the framework can be checked, symbol by
// symbol, against the framework installed beside it. A package compiled
// against PyTorch 2.4 imports c10::cuda::SetDevice(int) by its mangled name;
// when PyTorch 2.5 no longer exports it, Python's import fails with
// "undefined symbol: _ZN3c104cuda9SetDeviceEi". Reading both symbol tables
// says so before anything is imported.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct FrameworkAbi {
    // Outermost C++ namespaces of its interface ("c10", "at").
    std::vector<std::string_view> namespaces;
    // Prefixes of its C interface ("aoti_torch_", "THP").
    std::vector<std::string_view> c_prefixes;
    // Stems of its own shared libraries ("libtorch", "libc10"): a package
    // needing such a library the framework does not ship cannot load.
    std::vector<std::string_view> library_stems;
};

// The interface of a framework by its id ("torch"), or nullptr where strata
// does not check symbols (frameworks whose extensions bind through a
// versioned C API: JAX's XLA FFI, ONNX Runtime's OrtApi, CuPy's Python).
const FrameworkAbi* framework_abi(const std::string& framework_id);

// The outermost scope an Itanium-mangled name is declared in, also for
// vtables, typeinfo, guard variables, thunks and local statics: "c10" for
// _ZN3c104cuda9SetDeviceEi and _ZTVN2at6TensorE, "std" for _ZSt9terminatev,
// the function's own name for a global function. "" when the name is not
// mangled or starts with something this reader does not follow. A view into
// `mangled`, except "std" (the St abbreviation spells no namespace).
std::string_view outermost_scope(std::string_view mangled);

// Whether a symbol belongs to the framework's interface.
bool is_framework_symbol(const FrameworkAbi& abi, std::string_view symbol);

// The symbol as C++ prints it (c10::cuda::SetDevice(int)), or the symbol
// itself when it does not demangle or is too long to demangle safely.
std::string readable_symbol(std::string_view symbol);

}  // namespace strata
