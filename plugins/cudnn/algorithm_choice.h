// Which of the forward algorithms cuDNN's heuristics rank to run. The list
// cudnnGetConvolutionForwardAlgorithm_v7 returns is ranked but not filtered:
// an entry may carry a status other than success (the algorithm does not
// support this problem) and a math type other than the one asked for (an
// FP32 convolution on tensor cores through TF32, or through FP16 with
// CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION). Taking the first entry blindly can
// run an algorithm that fails, or time a different precision than the
// benchmark names. Pure logic on cuDNN's structs: tested without a GPU.
#pragma once

#include <cudnn.h>

#include <string>

namespace strata::cudnn {

struct AlgorithmChoice {
    int index = -1;             // into the heuristics' list; -1 when none fits
    cudnnMathType_t math_type;  // to set on the convolution descriptor before running
    std::string why_none;       // what each entry was, when none fits
};

// The first entry with status success whose math type fits: exact FP32
// allows only CUDNN_FMA_MATH; otherwise FMA, default (TF32 on Ampere and
// newer, as frameworks get by default) and tensor-op math, but never
// CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION, which rounds FP32 inputs to FP16.
AlgorithmChoice choose_forward_algorithm(const cudnnConvolutionFwdAlgoPerf_t* ranked, int count,
                                         bool exact_fp32);

const char* math_type_name(cudnnMathType_t type);

}  // namespace strata::cudnn
