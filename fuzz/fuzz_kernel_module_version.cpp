// /proc/driver/nvidia/version, in either format or neither.
#include <cstdint>
#include <string>

#include "probes/kernel_module_version.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto parsed =
        strata::parse_kernel_module_version(std::string_view(reinterpret_cast<const char*>(data), size));
    if (parsed && parsed->version.empty()) __builtin_trap();  // a parse always yields a version
    return 0;
}
