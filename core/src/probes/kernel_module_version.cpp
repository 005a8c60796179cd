#include "probes/kernel_module_version.h"

#include <cctype>

#include "probes/text_util.h"

namespace strata {

namespace {

bool is_version_token(std::string_view token) {
    // digits '.' digits, optionally '.' digits again: 580.65.06, 595.84
    int dots = 0;
    bool digit_seen = false;
    for (char c : token) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digit_seen = true;
        } else if (c == '.' && digit_seen) {
            ++dots;
            digit_seen = false;
        } else {
            return false;
        }
    }
    return digit_seen && (dots == 1 || dots == 2);
}

std::string_view line_starting(std::string_view text, std::string_view prefix) {
    for (std::string_view line : split_lines(text))
        if (line.substr(0, prefix.size()) == prefix) return line.substr(prefix.size());
    return {};
}

}  // namespace

std::optional<KernelModuleVersion> parse_kernel_module_version(std::string_view text) {
    std::string_view nvrm = line_starting(text, "NVRM version:");
    if (nvrm.empty()) return std::nullopt;
    KernelModuleVersion out;
    out.open_module = nvrm.find("Open Kernel Module") != std::string_view::npos;
    size_t pos = 0;
    while (pos < nvrm.size()) {
        while (pos < nvrm.size() && std::isspace(static_cast<unsigned char>(nvrm[pos]))) ++pos;
        size_t end = pos;
        while (end < nvrm.size() && !std::isspace(static_cast<unsigned char>(nvrm[end]))) ++end;
        std::string_view token = nvrm.substr(pos, end - pos);
        if (is_version_token(token)) {
            out.version = std::string(token);
            break;
        }
        pos = end;
    }
    if (out.version.empty()) return std::nullopt;
    out.gcc_version = std::string(trim(line_starting(text, "GCC version:")));
    return out;
}

}  // namespace strata
