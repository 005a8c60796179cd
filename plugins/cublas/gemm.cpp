#include "gemm.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>

#include "output_samples.h"

namespace strata::cublas {

namespace {

constexpr size_t kWorkspaceFloats = (32u << 20) / sizeof(float);  // 32 MiB, as cuBLAS recommends for Hopper

size_t element_size(GemmType type) {
    return type == GemmType::f32 ? 4 : 2;
}
cudaDataType data_type(GemmType type) {
    return type == GemmType::f32 ? CUDA_R_32F : type == GemmType::f16 ? CUDA_R_16F : CUDA_R_16BF;
}

// Rounds `values` to the input type in place and returns their device bytes.
std::vector<char> to_device_bytes(GemmType type, std::vector<float>& values) {
    std::vector<char> bytes(values.size() * element_size(type));
    for (size_t i = 0; i < values.size(); ++i) {
        if (type == GemmType::f32) {
            std::memcpy(&bytes[i * 4], &values[i], 4);
        } else if (type == GemmType::f16) {
            __half h = __float2half(values[i]);
            values[i] = __half2float(h);
            std::memcpy(&bytes[i * 2], &h, 2);
        } else {
            __nv_bfloat16 h = __float2bfloat16(values[i]);
            values[i] = __bfloat162float(h);
            std::memcpy(&bytes[i * 2], &h, 2);
        }
    }
    return bytes;
}

// One element of a device result of `type`, as a float.
float element_at(GemmType type, const std::vector<char>& bytes, size_t index) {
    if (type == GemmType::f32) {
        float value;
        std::memcpy(&value, &bytes[index * 4], 4);
        return value;
    }
    if (type == GemmType::f16) {
        __half value;
        std::memcpy(&value, &bytes[index * 2], 2);
        return __half2float(value);
    }
    __nv_bfloat16 value;
    std::memcpy(&value, &bytes[index * 2], 2);
    return __bfloat162float(value);
}

std::string status_text(const char* call, cublasStatus_t status) {
    return std::string(call) + ": " + cublasGetStatusName(status) + " (" + cublasGetStatusString(status) +
           ")";
}

}  // namespace

const char* gemm_type_name(GemmType type) {
    switch (type) {
        case GemmType::f32: return "f32";
        case GemmType::f16: return "f16";
        case GemmType::bf16: return "bf16";
    }
    return "?";
}

double output_rounding(GemmType type) {
    return type == GemmType::f32 ? 0 : type == GemmType::f16 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
}

bool gemm_type_supported(GemmType type, int cc_major, int cc_minor) {
    int cc = cc_major * 10 + cc_minor;
    return type == GemmType::f32 || (type == GemmType::f16 && cc >= 53) ||
           (type == GemmType::bf16 && cc >= 80);
}

GemmProblem::GemmProblem(GemmType type, int m, int n, int k) : type_(type), m_(m), n_(n), k_(k) {
    a_host_ = plugin::input_pattern(size_t(m) * k, 1);
    b_host_ = plugin::input_pattern(size_t(k) * n, 2);
    auto a_bytes = to_device_bytes(type, a_host_);
    auto b_bytes = to_device_bytes(type, b_host_);
    a_ = plugin::DeviceBuffer<char>(a_bytes.size());
    b_ = plugin::DeviceBuffer<char>(b_bytes.size());
    c_ = plugin::DeviceBuffer<char>(size_t(m) * n * element_size(type));
    if (a_.status() || b_.status() || c_.status()) {
        error_ = "cudaMalloc: " + plugin::cuda_error_text(a_.status()   ? a_.status()
                                                          : b_.status() ? b_.status()
                                                                        : c_.status());
        return;
    }
    cudaError_t uploaded = a_.upload(a_bytes);
    if (uploaded == cudaSuccess) uploaded = b_.upload(b_bytes);
    if (uploaded != cudaSuccess) {
        error_ = "copying the inputs to the GPU: " + plugin::cuda_error_text(uploaded);
        return;
    }
    if (type == GemmType::f32) {
        if (auto s = cublasCreate(&handle_); s != CUBLAS_STATUS_SUCCESS)
            error_ = status_text("cublasCreate", s);
        return;
    }
    workspace_ = plugin::DeviceBuffer<float>(kWorkspaceFloats);
    if (workspace_.status()) {
        error_ = "cudaMalloc of the cuBLASLt workspace: " + plugin::cuda_error_text(workspace_.status());
        return;
    }
    cublasStatus_t s = cublasLtCreate(&lt_);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasLtMatrixLayoutCreate(&layout_a_, data_type(type), m, k, m);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasLtMatrixLayoutCreate(&layout_b_, data_type(type), k, n, k);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasLtMatrixLayoutCreate(&layout_c_, data_type(type), m, n, m);
    if (s != CUBLAS_STATUS_SUCCESS) {
        error_ = status_text("cublasLt setup", s);
        return;
    }
    choose_algorithm();
}

// cuBLASLt's heuristics pick the algorithm once, told how much workspace
// there is: cublasLtMatmul with algo = NULL searches with a workspace limit
// of 0, which rules out the split-k and stream-k kernels large GEMMs use, so
// the workspace passed would go unused.
void GemmProblem::choose_algorithm() {
    cublasLtMatmulPreference_t preference = nullptr;
    uint64_t limit = workspace_limit_bytes();
    int returned = 0;
    cublasStatus_t s = cublasLtMatmulPreferenceCreate(&preference);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &limit,
                                                 sizeof limit);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = cublasLtMatmulAlgoGetHeuristic(lt_, desc_, layout_a_, layout_b_, layout_c_, layout_c_, preference,
                                           1, &heuristic_, &returned);
    if (preference) cublasLtMatmulPreferenceDestroy(preference);
    if (s != CUBLAS_STATUS_SUCCESS)
        error_ = status_text("cublasLtMatmulAlgoGetHeuristic", s);
    else if (returned == 0 || heuristic_.state != CUBLAS_STATUS_SUCCESS)
        error_ = "cublasLtMatmulAlgoGetHeuristic: no algorithm for this GEMM within a " +
                 std::to_string(limit >> 20) + " MiB workspace";
}

GemmProblem::~GemmProblem() {
    if (layout_c_) cublasLtMatrixLayoutDestroy(layout_c_);
    if (layout_b_) cublasLtMatrixLayoutDestroy(layout_b_);
    if (layout_a_) cublasLtMatrixLayoutDestroy(layout_a_);
    if (desc_) cublasLtMatmulDescDestroy(desc_);
    if (lt_) cublasLtDestroy(lt_);
    if (handle_) cublasDestroy(handle_);
}

double GemmProblem::bytes() const {
    return double(element_size(type_)) * (double(m_) * k_ + double(k_) * n_ + double(m_) * n_);
}

bool GemmProblem::run(cudaStream_t stream) {
    if (!error_.empty()) return false;
    const float alpha = 1.f, beta = 0.f;
    cublasStatus_t s;
    if (type_ == GemmType::f32) {
        s = cublasSetStream(handle_, stream);
        if (s == CUBLAS_STATUS_SUCCESS)
            s = cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, m_, n_, k_, &alpha,
                            reinterpret_cast<const float*>(a_.get()), m_,
                            reinterpret_cast<const float*>(b_.get()), k_, &beta,
                            reinterpret_cast<float*>(c_.get()), m_);
    } else {
        s = cublasLtMatmul(lt_, desc_, &alpha, a_.get(), layout_a_, b_.get(), layout_b_, &beta, c_.get(),
                           layout_c_, c_.get(), layout_c_, &heuristic_.algo, workspace_.get(),
                           workspace_limit_bytes(), stream);
    }
    if (s != CUBLAS_STATUS_SUCCESS)
        error_ = status_text(type_ == GemmType::f32 ? "cublasSgemm" : "cublasLtMatmul", s);
    return s == CUBLAS_STATUS_SUCCESS;
}

GemmProblem::Check GemmProblem::verify(size_t samples) {
    Check out;
    std::vector<char> c;
    if (cudaError_t rc = cudaDeviceSynchronize(); rc != cudaSuccess) {
        out.problem = plugin::cuda_error_text(rc);
        return out;
    }
    if (cudaError_t rc = c_.download(c); rc != cudaSuccess) {
        out.problem = plugin::cuda_error_text(rc);
        return out;
    }
    size_t total = size_t(m_) * n_;
    bool first = true;
    for (size_t index : plugin::output_samples(total, samples, size_t(m_))) {
        size_t row = index % m_, col = index / m_;
        double want = 0;
        for (int i = 0; i < k_; ++i)
            want += double(a_host_[row + size_t(i) * m_]) * b_host_[i + col * size_t(k_)];
        float got = element_at(type_, c, index);
        double error = plugin::relative_error(got, want);
        if (error > out.error || first) out = {error, index, got, want, {}};
        first = false;
    }
    return out;
}

}  // namespace strata::cublas
