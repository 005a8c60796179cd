// Which of cuDNN's ranked forward algorithms runs (issue #16: the first entry
// was taken whatever its status and math type).
#include <catch2/catch.hpp>
#include <vector>

#include "algorithm_choice.h"

using strata::cudnn::choose_forward_algorithm;

namespace {

cudnnConvolutionFwdAlgoPerf_t entry(cudnnConvolutionFwdAlgo_t algo, cudnnStatus_t status,
                                    cudnnMathType_t math) {
    cudnnConvolutionFwdAlgoPerf_t out{};
    out.algo = algo;
    out.status = status;
    out.mathType = math;
    return out;
}

}  // namespace

TEST_CASE("an entry cuDNN says does not work is skipped") {
    std::vector<cudnnConvolutionFwdAlgoPerf_t> ranked = {
        entry(CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, CUDNN_STATUS_NOT_SUPPORTED, CUDNN_DEFAULT_MATH),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_STATUS_SUCCESS, CUDNN_DEFAULT_MATH)};
    auto choice = choose_forward_algorithm(ranked.data(), static_cast<int>(ranked.size()), false);
    CHECK(choice.index == 1);
    CHECK(choice.math_type == CUDNN_DEFAULT_MATH);
}

TEST_CASE("exact FP32 takes only FMA math; the benchmark's default math never rounds FP32 to FP16") {
    std::vector<cudnnConvolutionFwdAlgoPerf_t> ranked = {
        entry(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_STATUS_SUCCESS,
              CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CUDNN_STATUS_SUCCESS, CUDNN_TENSOR_OP_MATH),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_STATUS_SUCCESS, CUDNN_FMA_MATH)};
    auto exact = choose_forward_algorithm(ranked.data(), static_cast<int>(ranked.size()), true);
    CHECK(exact.index == 2);
    CHECK(exact.math_type == CUDNN_FMA_MATH);
    auto usual = choose_forward_algorithm(ranked.data(), static_cast<int>(ranked.size()), false);
    CHECK(usual.index == 1);
    CHECK(usual.math_type == CUDNN_TENSOR_OP_MATH);
}

TEST_CASE("no usable entry says what each one was") {
    std::vector<cudnnConvolutionFwdAlgoPerf_t> ranked = {
        entry(CUDNN_CONVOLUTION_FWD_ALGO_FFT, CUDNN_STATUS_NOT_SUPPORTED, CUDNN_DEFAULT_MATH),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_STATUS_SUCCESS, CUDNN_TENSOR_OP_MATH)};
    auto choice = choose_forward_algorithm(ranked.data(), static_cast<int>(ranked.size()), true);
    CHECK(choice.index == -1);
    CHECK(choice.why_none.find("algorithm 4: status 3000") != std::string::npos);
    CHECK(choice.why_none.find("math tensor_op (exact FP32 needs fma)") != std::string::npos);
    CHECK(choose_forward_algorithm(nullptr, 0, false).why_none == "cuDNN's heuristics returned no algorithm");
}
