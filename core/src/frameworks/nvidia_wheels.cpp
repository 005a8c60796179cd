#include "frameworks/nvidia_wheels.h"

#include <regex>

namespace strata {

namespace {

struct WheelLibraries {
    const char* wheel;                  // the name without its -cuNN suffix
    std::vector<const char*> stems;     // "libcudnn.so."
    const char* fixed_major = nullptr;  // NCCL's soname stays .2 across releases
};

const std::vector<WheelLibraries>& table() {
    static const std::vector<WheelLibraries> rows = {
        {"nvidia-cuda-runtime", {"libcudart.so."}}, {"nvidia-cublas", {"libcublas.so.", "libcublasLt.so."}},
        {"nvidia-cudnn", {"libcudnn.so."}},         {"nvidia-nccl", {"libnccl.so."}, "2"},
        {"nvidia-cufft", {"libcufft.so."}},         {"nvidia-curand", {"libcurand.so."}},
        {"nvidia-cusolver", {"libcusolver.so."}},   {"nvidia-cusparse", {"libcusparse.so."}},
        {"nvidia-nvjitlink", {"libnvJitLink.so."}}, {"nvidia-cuda-nvrtc", {"libnvrtc.so."}},
        {"nvidia-cuda-cupti", {"libcupti.so."}},
    };
    return rows;
}

}  // namespace

std::vector<std::string> wheel_sonames(std::string_view wheel, std::string_view version) {
    static const std::regex suffix(R"(-cu\d+$)");
    std::string base = std::regex_replace(std::string(wheel), suffix, "");
    std::string major(version.substr(0, version.find('.')));
    std::vector<std::string> out;
    for (const WheelLibraries& row : table()) {
        if (base != row.wheel) continue;
        std::string soname_major = row.fixed_major ? row.fixed_major : major;
        if (soname_major.empty() || soname_major.find_first_not_of("0123456789") != std::string::npos)
            return {};
        for (const char* stem : row.stems) out.push_back(stem + soname_major);
    }
    return out;
}

}  // namespace strata
