#include "algorithm_choice.h"

namespace strata::cudnn {

namespace {

bool math_fits(cudnnMathType_t type, bool exact_fp32) {
    if (exact_fp32) return type == CUDNN_FMA_MATH;
    return type == CUDNN_FMA_MATH || type == CUDNN_DEFAULT_MATH || type == CUDNN_TENSOR_OP_MATH;
}

}  // namespace

const char* math_type_name(cudnnMathType_t type) {
    switch (type) {
        case CUDNN_DEFAULT_MATH: return "default";
        case CUDNN_TENSOR_OP_MATH: return "tensor_op";
        case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "tensor_op_allow_conversion";
        case CUDNN_FMA_MATH: return "fma";
    }
    return "unknown";
}

AlgorithmChoice choose_forward_algorithm(const cudnnConvolutionFwdAlgoPerf_t* ranked, int count,
                                         bool exact_fp32) {
    AlgorithmChoice out{-1, CUDNN_DEFAULT_MATH, {}};
    for (int i = 0; ranked && i < count; ++i) {
        const cudnnConvolutionFwdAlgoPerf_t& entry = ranked[i];
        if (entry.status == CUDNN_STATUS_SUCCESS && math_fits(entry.mathType, exact_fp32)) {
            out.index = i;
            out.math_type = entry.mathType;
            out.why_none.clear();
            return out;
        }
        out.why_none += (out.why_none.empty() ? "" : "; ") + std::string("algorithm ") +
                        std::to_string(static_cast<int>(entry.algo)) + ": " +
                        (entry.status != CUDNN_STATUS_SUCCESS
                             ? "status " + std::to_string(static_cast<int>(entry.status))
                             : std::string("math ") + math_type_name(entry.mathType) +
                                   (exact_fp32 ? " (exact FP32 needs fma)" : " (rounds FP32 to FP16)"));
    }
    if (out.why_none.empty()) out.why_none = "cuDNN's heuristics returned no algorithm";
    return out;
}

}  // namespace strata::cudnn
