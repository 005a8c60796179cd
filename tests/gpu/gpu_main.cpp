// Entry point of the GPU tests: with no usable GPU they exit 77, which ctest
// reports as "Skipped" with the reason printed here (SKIP_RETURN_CODE).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>

#include "gpu/gpu_available.h"

int main(int argc, char** argv) {
    if (std::string reason = strata::test::gpu_unavailable_reason(); !reason.empty()) {
        std::printf("SKIPPED: no usable GPU (%s)\n", reason.c_str());
        return 77;
    }
    return Catch::Session().run(argc, argv);
}
