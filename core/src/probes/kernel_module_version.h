// Parses /proc/driver/nvidia/version, which comes in two formats:
//   proprietary: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 ..."
//   open:        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  595.84  Release Build ..."
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace strata {

struct KernelModuleVersion {
    std::string version;  // "580.65.06"
    bool open_module = false;
    std::string gcc_version;  // from the "GCC version:" line, may be empty
};

// nullopt when the text has no NVRM line with a version number.
std::optional<KernelModuleVersion> parse_kernel_module_version(std::string_view text);

}  // namespace strata
