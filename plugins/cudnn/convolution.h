// One NCHW FP32 convolution forward (cross-correlation, as frameworks use)
// through cuDNN's legacy API, with a direct CPU reference to check it.
#pragma once

#include <cudnn.h>

#include <string>
#include <vector>

#include "cuda_helpers.h"

namespace strata::cudnn {

struct ConvShape {
    int n, c, h, w;  // input
    int k, r, s;     // filters
    int pad, stride;
    int out_h() const { return (h + 2 * pad - r) / stride + 1; }
    int out_w() const { return (w + 2 * pad - s) / stride + 1; }
    double flops() const { return 2.0 * n * k * out_h() * out_w() * c * r * s; }
    double bytes() const {
        return 4.0 * (double(n) * c * h * w + double(k) * c * r * s + double(n) * k * out_h() * out_w());
    }
    std::string text() const;
};

class Convolution {
public:
    // exact_fp32: FMA math only (no TF32), for verification; otherwise
    // cuDNN's default math, as applications get it.
    Convolution(const ConvShape& shape, bool exact_fp32);
    ~Convolution();
    Convolution(const Convolution&) = delete;
    Convolution& operator=(const Convolution&) = delete;

    const std::string& error() const { return error_; }
    // "implicit_precomp_gemm (fma math)": the algorithm and its math type.
    std::string algorithm() const;
    bool run(cudaStream_t stream);
    // Largest relative error over every output element (or `samples` of them).
    struct Check {
        double error = 0;
        size_t index = 0;
        double got = 0, want = 0;
        std::string problem;
    };
    Check verify(size_t samples);

private:
    double reference_at(size_t index) const;
    const char* algorithm_name() const;

    ConvShape shape_;
    std::vector<float> x_host_, w_host_;
    plugin::DeviceBuffer<float> x_, w_, y_;
    plugin::DeviceBuffer<char> workspace_;
    cudnnHandle_t handle_ = nullptr;
    cudnnTensorDescriptor_t x_desc_ = nullptr, y_desc_ = nullptr;
    cudnnFilterDescriptor_t w_desc_ = nullptr;
    cudnnConvolutionDescriptor_t conv_desc_ = nullptr;
    cudnnConvolutionFwdAlgo_t algo_ = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    cudnnMathType_t math_ = CUDNN_DEFAULT_MATH;
    std::string error_;
};

}  // namespace strata::cudnn
