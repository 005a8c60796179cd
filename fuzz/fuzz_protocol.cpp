// The worker protocol: lines from a child process that may be corrupt.
#include <cstdint>
#include <string>

#include "worker/protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string error;
    auto message =
        strata::protocol::decode(std::string_view(reinterpret_cast<const char*>(data), size), error);
    if (!message && error.empty()) __builtin_trap();  // a refusal always says why
    return 0;
}
