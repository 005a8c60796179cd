#include "diagnosis/install_hints.h"

#include <regex>

namespace strata {

namespace {

struct Hint {
    const char* pattern;  // soname, with the major as group 1
    const char* text;     // {M} is replaced by the major
};

// Package names as NVIDIA's apt repository and PyPI publish them (CUDA 12/13).
constexpr Hint kHints[] = {
    {R"(libcudart\.so\.(\d+))",
     "the CUDA runtime {M}: apt install cuda-cudart-{M}-<minor> (NVIDIA's repository), pip install "
     "nvidia-cuda-runtime (CUDA 13) or nvidia-cuda-runtime-cu12, or the toolkit's cudart component"},
    {R"(libcublas(Lt)?\.so\.(\d+))",
     "cuBLAS {M}: apt install libcublas-{M}-<minor> (NVIDIA's repository), pip install nvidia-cublas (CUDA "
     "13) or "
     "nvidia-cublas-cu12, or the toolkit's cublas component"},
    {R"(libcudnn[a-z_]*\.so\.(\d+))",
     "cuDNN {M}: apt install libcudnn{M}-cuda-<CUDA major> (NVIDIA's repository), pip install "
     "nvidia-cudnn-cu13 "
     "(or -cu12), or the cuDNN tarball from developer.nvidia.com; every libcudnn_* sub-library must come "
     "with it"},
    {R"(libnccl\.so\.(\d+))",
     "NCCL {M}: apt install libnccl{M} (NVIDIA's repository), pip install nvidia-nccl-cu13 (or -cu12)"},
    {R"(libnvrtc\.so\.(\d+))",
     "NVRTC {M}: apt install cuda-nvrtc-{M}-<minor>, or pip install nvidia-cuda-nvrtc"},
    {R"(libcuda\.so\.(\d+))",
     "libcuda is the NVIDIA driver's: install the driver (Debian: nvidia-driver / libcuda1; Ubuntu: "
     "libnvidia-compute-<branch>); in a container, start it with --gpus all"},
};

}  // namespace

std::string install_hint(std::string_view soname) {
    std::string name(soname);
    for (const Hint& hint : kHints) {
        std::smatch match;
        if (!std::regex_match(name, match, std::regex(hint.pattern))) continue;
        std::string major = match[match.size() - 1].str();
        std::string text = hint.text;
        for (size_t at = text.find("{M}"); at != std::string::npos; at = text.find("{M}", at))
            text.replace(at, 3, major);
        return text;
    }
    return {};
}

Layer layer_of_library(std::string_view soname) {
    if (soname.rfind("libcuda.so", 0) == 0 || soname.rfind("libnvidia-ml.so", 0) == 0) return Layer::driver;
    if (soname.rfind("libcudart.so", 0) == 0) return Layer::runtime;
    return Layer::library;
}

}  // namespace strata
