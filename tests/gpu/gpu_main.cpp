// Entry point of the GPU tests: with no usable GPU they exit 77, which ctest
// reports as "Skipped" with the reason printed here (SKIP_RETURN_CODE).
#define CATCH_CONFIG_RUNNER
#include <cuda_runtime_api.h>

#include <catch2/catch.hpp>
#include <cstdio>

int main(int argc, char** argv) {
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess || count == 0) {
        std::printf("SKIPPED: no usable GPU (%s)\n",
                    rc != cudaSuccess ? cudaGetErrorString(rc) : "0 devices");
        return 77;
    }
    return Catch::Session().run(argc, argv);
}
