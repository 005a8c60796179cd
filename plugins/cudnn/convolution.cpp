#include "convolution.h"

#include <cmath>

#include "algorithm_choice.h"
#include "output_samples.h"

namespace strata::cudnn {

namespace {

std::string status_text(const char* call, cudnnStatus_t status) {
    return std::string(call) + ": " + cudnnGetErrorString(status);
}

}  // namespace

std::string ConvShape::text() const {
    return "n=" + std::to_string(n) + ",c=" + std::to_string(c) + ",h=" + std::to_string(h) +
           ",w=" + std::to_string(w) + ",k=" + std::to_string(k) + ",r=" + std::to_string(r) +
           ",s=" + std::to_string(s) + ",pad=" + std::to_string(pad) + ",stride=" + std::to_string(stride);
}

Convolution::Convolution(const ConvShape& shape, bool exact_fp32) : shape_(shape) {
    const ConvShape& s = shape_;
    x_host_ = plugin::input_pattern(size_t(s.n) * s.c * s.h * s.w, 7);
    w_host_ = plugin::input_pattern(size_t(s.k) * s.c * s.r * s.s, 8);
    x_ = plugin::DeviceBuffer<float>(x_host_.size());
    w_ = plugin::DeviceBuffer<float>(w_host_.size());
    y_ = plugin::DeviceBuffer<float>(size_t(s.n) * s.k * s.out_h() * s.out_w());
    if (cudaError_t rc = x_.status() ? x_.status() : w_.status() ? w_.status() : y_.status()) {
        error_ = "cudaMalloc: " + plugin::cuda_error_text(rc);
        return;
    }
    cudaError_t uploaded = x_.upload(x_host_);
    if (uploaded == cudaSuccess) uploaded = w_.upload(w_host_);
    if (uploaded != cudaSuccess) {
        error_ = "copying the inputs to the GPU: " + plugin::cuda_error_text(uploaded);
        return;
    }
    cudnnStatus_t st = cudnnCreate(&handle_);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateTensorDescriptor(&x_desc_);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateTensorDescriptor(&y_desc_);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateFilterDescriptor(&w_desc_);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateConvolutionDescriptor(&conv_desc_);
    if (st == CUDNN_STATUS_SUCCESS)
        st = cudnnSetTensor4dDescriptor(x_desc_, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.n, s.c, s.h, s.w);
    if (st == CUDNN_STATUS_SUCCESS)
        st = cudnnSetFilter4dDescriptor(w_desc_, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, s.k, s.c, s.r, s.s);
    if (st == CUDNN_STATUS_SUCCESS)
        st = cudnnSetConvolution2dDescriptor(conv_desc_, s.pad, s.pad, s.stride, s.stride, 1, 1,
                                             CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
    if (st == CUDNN_STATUS_SUCCESS)
        st = cudnnSetConvolutionMathType(conv_desc_, exact_fp32 ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH);
    if (st == CUDNN_STATUS_SUCCESS)
        st = cudnnSetTensor4dDescriptor(y_desc_, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.n, s.k, s.out_h(),
                                        s.out_w());
    if (st != CUDNN_STATUS_SUCCESS) {
        error_ = status_text("cuDNN setup", st);
        return;
    }
    // cuDNN's own heuristics rank the algorithms, as frameworks' default path
    // does; the first that works in the asked-for precision runs, with the
    // math type it was ranked with set on the descriptor.
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    st = cudnnGetConvolutionForwardAlgorithm_v7(handle_, x_desc_, w_desc_, conv_desc_, y_desc_,
                                                CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf);
    if (st != CUDNN_STATUS_SUCCESS) {
        error_ = status_text("cudnnGetConvolutionForwardAlgorithm_v7", st);
        return;
    }
    AlgorithmChoice choice = choose_forward_algorithm(perf, returned, exact_fp32);
    if (choice.index < 0) {
        error_ = "no usable forward algorithm: " + choice.why_none;
        return;
    }
    algo_ = perf[choice.index].algo;
    math_ = choice.math_type;
    st = cudnnSetConvolutionMathType(conv_desc_, math_);
    if (st != CUDNN_STATUS_SUCCESS) {
        error_ = status_text("cudnnSetConvolutionMathType", st);
        return;
    }
    size_t bytes = 0;
    st = cudnnGetConvolutionForwardWorkspaceSize(handle_, x_desc_, w_desc_, conv_desc_, y_desc_, algo_,
                                                 &bytes);
    if (st != CUDNN_STATUS_SUCCESS) {
        error_ = status_text("cudnnGetConvolutionForwardWorkspaceSize", st);
        return;
    }
    workspace_ = plugin::DeviceBuffer<char>(bytes ? bytes : 1);
}

Convolution::~Convolution() {
    if (conv_desc_) cudnnDestroyConvolutionDescriptor(conv_desc_);
    if (w_desc_) cudnnDestroyFilterDescriptor(w_desc_);
    if (y_desc_) cudnnDestroyTensorDescriptor(y_desc_);
    if (x_desc_) cudnnDestroyTensorDescriptor(x_desc_);
    if (handle_) cudnnDestroy(handle_);
}

std::string Convolution::algorithm() const {
    return std::string(algorithm_name()) + " (" + math_type_name(math_) + " math)";
}

const char* Convolution::algorithm_name() const {
    switch (algo_) {
        case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "implicit_gemm";
        case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "implicit_precomp_gemm";
        case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "gemm";
        case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "direct";
        case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "fft";
        case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "fft_tiling";
        case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "winograd";
        case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "winograd_nonfused";
        default: return "other";
    }
}

bool Convolution::run(cudaStream_t stream) {
    if (!error_.empty()) return false;
    const float alpha = 1.f, beta = 0.f;
    cudnnStatus_t st = cudnnSetStream(handle_, stream);
    if (st == CUDNN_STATUS_SUCCESS)
        st = cudnnConvolutionForward(handle_, &alpha, x_desc_, x_.get(), w_desc_, w_.get(), conv_desc_, algo_,
                                     workspace_.get(), workspace_.size(), &beta, y_desc_, y_.get());
    if (st != CUDNN_STATUS_SUCCESS) error_ = status_text("cudnnConvolutionForward", st);
    return st == CUDNN_STATUS_SUCCESS;
}

double Convolution::reference_at(size_t index) const {
    const ConvShape& s = shape_;
    size_t q = index % s.out_w(), p = (index / s.out_w()) % s.out_h();
    size_t k = (index / (size_t(s.out_w()) * s.out_h())) % s.k,
           n = index / (size_t(s.out_w()) * s.out_h() * s.k);
    double sum = 0;
    for (int c = 0; c < s.c; ++c)
        for (int r = 0; r < s.r; ++r)
            for (int t = 0; t < s.s; ++t) {
                long y = long(p) * s.stride - s.pad + r, x = long(q) * s.stride - s.pad + t;
                if (y < 0 || x < 0 || y >= s.h || x >= s.w) continue;
                sum += double(x_host_[((n * s.c + c) * s.h + y) * s.w + x]) *
                       w_host_[((k * s.c + c) * s.r + r) * s.s + t];
            }
    return sum;
}

Convolution::Check Convolution::verify(size_t samples) {
    Check out;
    std::vector<float> y;
    if (cudaError_t rc = cudaDeviceSynchronize(); rc != cudaSuccess) {
        out.problem = plugin::cuda_error_text(rc);
        return out;
    }
    if (cudaError_t rc = y_.download(y); rc != cudaSuccess) {
        out.problem = plugin::cuda_error_text(rc);
        return out;
    }
    bool first = true;
    for (size_t i : plugin::output_samples(y.size(), samples, size_t(shape_.out_w()))) {
        double want = reference_at(i);
        double error = plugin::relative_error(y[i], want);
        if (error > out.error || first) out = {error, i, y[i], want, {}};
        first = false;
    }
    return out;
}

}  // namespace strata::cudnn
