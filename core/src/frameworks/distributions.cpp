#include "frameworks/distributions.h"

#include <algorithm>
#include <regex>

#include "probes/probe_context.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr FrameworkKind kTorch{"torch", "PyTorch"}, kJax{"jax", "JAX"},
    kTensorflow{"tensorflow", "TensorFlow"}, kCupy{"cupy", "CuPy"},
    kOnnxruntime{"onnxruntime", "ONNX Runtime"};

}  // namespace

const FrameworkKind* classify_distribution(const std::string& name) {
    static const std::regex jax_cuda(R"(jax-cuda\d+-(plugin|pjrt))");
    static const std::regex cupy(R"(cupy(-cuda\d+x?|-rocm-.*)?)");
    if (name == "torch") return &kTorch;
    if (name == "jaxlib" || std::regex_match(name, jax_cuda)) return &kJax;
    if (name == "tensorflow" || name == "tensorflow-gpu" || name == "tensorflow-cpu" ||
        name == "tf-nightly" || name == "tf-nightly-gpu" || name == "tensorflow-intel")
        return &kTensorflow;
    if (std::regex_match(name, cupy)) return &kCupy;
    if (name == "onnxruntime-gpu" || name == "onnxruntime" || name == "ort-nightly-gpu") return &kOnnxruntime;
    return nullptr;
}

std::string read_text(const fs::path& path, size_t limit) {
    return read_file(path, limit).value_or("");
}

std::vector<Distribution> read_distributions(const std::string& site_dir) {
    std::vector<Distribution> out;
    std::error_code error;
    std::vector<fs::path> infos;
    for (const auto& entry :
         fs::directory_iterator(site_dir, fs::directory_options::skip_permission_denied, error))
        if (entry.path().extension() == ".dist-info") infos.push_back(entry.path());
    std::sort(infos.begin(), infos.end());
    for (const fs::path& info : infos) {
        auto metadata = parse_package_metadata(read_text(info / "METADATA", 1 << 20));
        if (!metadata) continue;
        Distribution dist;
        dist.name = normalize_package_name(metadata->name);
        dist.metadata = std::move(*metadata);
        dist.site_dir = site_dir;
        // Only a framework's files and NVIDIA's libraries are ever looked at:
        // an environment's other RECORDs (hundreds, some of a megabyte) are not read.
        if (!classify_distribution(dist.name) && dist.name.rfind("nvidia-", 0) != 0) {
            out.push_back(std::move(dist));
            continue;
        }
        for (const std::string& relative : parse_record(read_text(info / "RECORD", 16 << 20)))
            dist.files.push_back((fs::path(site_dir) / relative).lexically_normal().string());
        out.push_back(std::move(dist));
    }
    return out;
}

}  // namespace strata
