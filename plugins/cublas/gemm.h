// The GEMMs cuBLAS is tested and timed with: FP32 through cublasSgemm, and
// FP16 / BF16 inputs and output with FP32 accumulation through
// cublasLtMatmul, as frameworks run a half-precision matmul (so PyTorch's
// torch.matmul on the same data is a like-for-like peer).
// Column-major, C = A (m x k) * B (k x n).
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "cuda_helpers.h"

namespace strata::cublas {

enum class GemmType { f32, f16, bf16 };

const char* gemm_type_name(GemmType type);
// Tensor-core FP16 needs CC 5.3+, BF16 8.0+; FP32 runs everywhere.
bool gemm_type_supported(GemmType type, int cc_major, int cc_minor);
// Half a unit in the last place of the output type, relative: what rounding
// the FP32 accumulator to the output adds to a result's error.
double output_rounding(GemmType type);

// One problem on the device: inputs from input_pattern (rounded to the
// input type), output in the input type. Owns its handles and buffers.
class GemmProblem {
public:
    GemmProblem(GemmType type, int m, int n, int k);
    ~GemmProblem();
    GemmProblem(const GemmProblem&) = delete;
    GemmProblem& operator=(const GemmProblem&) = delete;

    // Empty when ready; otherwise what failed.
    const std::string& error() const { return error_; }
    // Enqueues one GEMM on `stream`; false and error() on failure.
    bool run(cudaStream_t stream);
    // Compares `samples` output elements (spread over C) with a double
    // precision CPU dot product; returns the largest relative error and where.
    struct Check {
        double error = 0;
        size_t index = 0;
        double got = 0, want = 0;
        std::string problem;  // a failed copy
    };
    Check verify(size_t samples);

    double flops() const { return 2.0 * m_ * n_ * k_; }
    // cuBLASLt: the workspace the chosen algorithm uses, of the workspace
    // offered (0 for cublasSgemm, which manages its own).
    size_t algorithm_workspace_bytes() const { return heuristic_.workspaceSize; }
    size_t workspace_limit_bytes() const { return workspace_.size() * sizeof(float); }
    double bytes() const;

private:
    void choose_algorithm();

    GemmType type_;
    int m_, n_, k_;
    std::vector<float> a_host_, b_host_;    // inputs as the device sees them (after rounding)
    plugin::DeviceBuffer<char> a_, b_, c_;  // C in the input type
    plugin::DeviceBuffer<float> workspace_;
    cublasHandle_t handle_ = nullptr;
    cublasLtHandle_t lt_ = nullptr;
    cublasLtMatmulDesc_t desc_ = nullptr;
    cublasLtMatrixLayout_t layout_a_ = nullptr, layout_b_ = nullptr, layout_c_ = nullptr;
    cublasLtMatmulHeuristicResult_t heuristic_{};  // the algorithm every run uses
    std::string error_;
};

}  // namespace strata::cublas
