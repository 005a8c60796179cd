#include "frameworks/framework_abi.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace strata {

namespace {

// Skips "<digits>_" (a call offset's number, "n8_" also negative); false when malformed.
bool skip_number(std::string_view& text) {
    if (!text.empty() && text[0] == 'n') text.remove_prefix(1);
    size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0 || digits >= text.size() || text[digits] != '_') return false;
    text.remove_prefix(digits + 1);
    return true;
}

// A mangled name longer than this is printed as it is: the demangler
// recurses on nesting, and a hostile library's symbol table is untrusted.
constexpr size_t demangle_limit = 1024;

}  // namespace

const FrameworkAbi* framework_abi(const std::string& framework_id) {
    // PyTorch: c10 and ATen's tensors, the dispatcher and autograd (at::,
    // c10::, torch::, caffe2:: for the type registry), the stable C shim
    // (aoti_torch_*, torch_*) and torch/_C's Python bindings (THP*).
    static const FrameworkAbi torch{{"c10", "at", "torch", "caffe2"},
                                    {"aoti_torch_", "torch_", "THP"},
                                    {"libtorch", "libc10", "libcaffe2", "libshm"}};
    if (framework_id == "torch") return &torch;
    return nullptr;
}

std::string_view outermost_scope(std::string_view name) {
    if (!name.starts_with("_Z")) return {};
    name.remove_prefix(2);
    // Special names wrap another name or encoding; a local name is scoped by
    // the function it is declared in. Each step consumes input, and the
    // count bounds the loop on hostile input.
    for (int step = 0; step < 16; ++step) {
        if (name.starts_with("TV") || name.starts_with("TT") || name.starts_with("TI") ||
            name.starts_with("TS") || name.starts_with("TH") || name.starts_with("TW") ||
            name.starts_with("GV") || name.starts_with("GR")) {
            name.remove_prefix(2);
        } else if (name.starts_with("Th")) {  // non-virtual thunk: Th <offset> _ <encoding>
            name.remove_prefix(2);
            if (!skip_number(name)) return {};
        } else if (name.starts_with("Tv")) {  // virtual thunk: Tv <offset> _ <vcall offset> _ <encoding>
            name.remove_prefix(2);
            if (!skip_number(name) || !skip_number(name)) return {};
        } else if (name.starts_with("Z")) {  // local name: Z <function encoding> E <entity>
            name.remove_prefix(1);
        } else if (name.starts_with("N")) {  // nested: N [CV-qualifiers] [ref-qualifier] <prefix> ... E
            name.remove_prefix(1);
            while (!name.empty() &&
                   (name[0] == 'r' || name[0] == 'V' || name[0] == 'K' || name[0] == 'R' || name[0] == 'O'))
                name.remove_prefix(1);
            break;
        } else {
            break;
        }
    }
    if (name.starts_with("St")) return "std";
    size_t digits = 0, length = 0;
    while (digits < name.size() && digits < 6 && name[digits] >= '0' && name[digits] <= '9')
        length = length * 10 + static_cast<size_t>(name[digits++] - '0');
    if (digits == 0 || length == 0 || length > name.size() - digits) return {};
    return name.substr(digits, length);
}

bool is_framework_symbol(const FrameworkAbi& abi, std::string_view symbol) {
    if (symbol.starts_with("_Z")) {
        std::string_view scope = outermost_scope(symbol);
        for (std::string_view name : abi.namespaces)
            if (scope == name) return true;
        return false;
    }
    for (std::string_view prefix : abi.c_prefixes)
        if (symbol.starts_with(prefix)) return true;
    return false;
}

std::string readable_symbol(std::string_view symbol) {
    if (!symbol.starts_with("_Z") || symbol.size() > demangle_limit) return std::string(symbol);
    std::string mangled(symbol);
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> text(
        abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && text ? std::string(text.get()) : mangled;
}

}  // namespace strata
