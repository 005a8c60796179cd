// Every status code of the CUDA stack: generated from the toolkit's headers by
// scripts/generate-status-codes (status_codes_generated.inc), plus NVML's
// return codes from NVIDIA's documentation (nvml_return_codes.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/layer.h"

namespace strata {

enum class StatusFamily {
    cuda_runtime,
    cuda_driver,
    cublas,
    cudnn,
    nccl,
    nvrtc,
    nvjitlink,
    cufft,
    curand,
    cusolver,
    cusparse,
    nvml
};

struct StatusCode {
    StatusFamily family;
    std::string_view type;  // "cudaError_t"
    std::string_view name;  // "cudaErrorNoKernelImageForDevice"
    int64_t number;
    std::string_view description;    // the header's (or documentation's) own words
    std::string_view printed;        // what the library's error-string function prints
    std::string_view failure_class;  // "success" for the success codes
    Layer layer;
    std::string_view source;  // header file or document
};

const std::vector<StatusCode>& status_codes();
const StatusCode* find_status_code(std::string_view name);
// The CUDA runtime's code for a bare number ("CUDA error 999", "Error 804:").
const StatusCode* find_cuda_runtime_code(int64_t number);
// NVML's return codes (no nvml.h in the toolkit; see nvml_return_codes.cpp).
const std::vector<StatusCode>& nvml_return_codes();

}  // namespace strata
