// The library plugins' GPU objects on a real GPU: the cuBLASLt GEMM with the
// algorithm cuBLASLt picks for the workspace it is given, and the NCCL
// collectives timed on the stream of the GPU the harness chose, each verified.
#include <cuda_runtime_api.h>

#include <catch2/catch.hpp>

#include "collective.h"
#include "gemm.h"

using strata::cublas::GemmProblem;
using strata::cublas::GemmType;

TEST_CASE("cuBLASLt runs the algorithm picked for the 32 MiB workspace it is given", "[gpu]") {
    cudaDeviceProp props{};
    REQUIRE(cudaGetDeviceProperties(&props, 0) == cudaSuccess);
    for (GemmType type : {GemmType::f16, GemmType::bf16}) {
        if (!strata::cublas::gemm_type_supported(type, props.major, props.minor)) continue;
        INFO(strata::cublas::gemm_type_name(type));
        GemmProblem problem(type, 4096, 4096, 4096);
        REQUIRE(problem.error().empty());
        // With algo = NULL cuBLASLt searched with a workspace limit of 0.
        CHECK(problem.workspace_limit_bytes() == (size_t{32} << 20));
        CHECK(problem.algorithm_workspace_bytes() <= problem.workspace_limit_bytes());
        REQUIRE(problem.run(nullptr));
        auto check = problem.verify(256);
        CHECK(check.problem.empty());
        CHECK(check.error <= 4e-3);
    }
}

TEST_CASE("every collective is timed on the harness's stream, on the harness's GPU, and verified", "[gpu]") {
    using strata::nccl::Collective;
    int count = 0;
    REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
    const int home = count - 1;  // --device N with N != 0 where there are several GPUs
    REQUIRE(cudaSetDevice(home) == cudaSuccess);
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    {
        constexpr size_t kCount = 1 << 20;
        strata::nccl::Collectives collectives(4 * kCount, stream);
        REQUIRE(collectives.error().empty());
        CHECK(collectives.home() == home);
        CHECK(collectives.ranks() == count);
        for (Collective c :
             {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter,
              Collective::broadcast, Collective::reduce, Collective::all_to_all, Collective::send_recv}) {
            INFO(strata::nccl::collective_name(c));
            double ms = 0;
            REQUIRE(collectives.time(c, kCount, 20, &ms));
            CHECK(ms > 0);
            auto check = collectives.verify(c, kCount);
            CHECK(check.problem.empty());
            CHECK(check.error <= 1e-6);
        }
        CHECK_FALSE(collectives.run(Collective::all_reduce, 4 * kCount + 1));  // beyond its buffers: refused
    }
    cudaStreamDestroy(stream);
    cudaSetDevice(0);
}
