#include "frameworks/build_records.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <string_view>

#include "frameworks/python_metadata.h"
#include "probes/probe_context.h"
#include "strata/arch/tables.h"

namespace strata {

namespace {

namespace fs = std::filesystem;

// A file the distribution installed, by its path inside site-packages.
std::string file_ending(const std::vector<const Distribution*>& dists, std::string_view suffix) {
    for (const Distribution* dist : dists)
        for (const std::string& file : dist->files)
            if (file.ends_with(suffix)) return file;
    return {};
}

const Distribution* find_dist(const std::vector<const Distribution*>& dists, const std::regex& pattern) {
    for (const Distribution* dist : dists)
        if (std::regex_match(dist->name, pattern)) return dist;
    return nullptr;
}

std::string site_relative(const FrameworkInstall& install, const std::string& path) {
    return fs::path(path).lexically_relative(install.site_dir).string();
}

// The floor of the first dependency whose name matches, for build versions
// that only the pins record (torch's cuDNN and NCCL).
std::string pinned(const std::vector<const Distribution*>& dists, const std::regex& pattern) {
    for (const Distribution* dist : dists)
        for (const Requirement& requirement : dist->metadata.requires_dist)
            if (std::regex_match(requirement.name, pattern)) return specifier_floor(requirement.specifier);
    return {};
}

// Whether the first dependency matching `pattern` pins one version (==)
// rather than a floor (>=).
bool pinned_exactly(const std::vector<const Distribution*>& dists, const std::regex& pattern) {
    for (const Distribution* dist : dists)
        for (const Requirement& requirement : dist->metadata.requires_dist)
            if (std::regex_match(requirement.name, pattern)) return requirement.specifier.rfind("==", 0) == 0;
    return true;
}

void read_torch_build(FrameworkInstall& install, const std::vector<const Distribution*>& dists) {
    std::string file = file_ending(dists, "/torch/version.py");
    std::optional<std::string> read = file.empty() ? std::optional<std::string>("") : read_file(file);
    if (!read) {
        // Not "a CPU-only build": what it was built for is unknown.
        install.problems.push_back(file + ": cannot be read");
        install.build_kind = "a build whose torch/version.py cannot be read";
        return;
    }
    const std::string& text = *read;
    if (auto hip = python_string_value(text, "hip")) {
        install.build_kind = "a ROCm build (HIP " + *hip + ")";
    } else if (auto cuda = python_string_value(text, "cuda")) {
        install.cuda_build = true;
        install.cuda_version = *cuda;
        install.cuda_source = site_relative(install, file);
    } else {
        install.build_kind = file.empty() ? "a build without torch/version.py" : "a CPU-only build";
    }
    install.cudnn_version = pinned(dists, std::regex(R"(nvidia-cudnn(-cu\d+)?)"));
    install.nccl_version = pinned(dists, std::regex(R"(nvidia-nccl(-cu\d+)?)"));
}

void read_jax_build(FrameworkInstall& install, const std::vector<const Distribution*>& dists) {
    static const std::regex plugin(R"(jax-cuda(\d+)-(plugin|pjrt))");
    // jaxlib loads only a CUDA plugin of its own release.
    const Distribution* first = find_dist(dists, std::regex("jaxlib"));
    if (!first) first = dists.front();
    for (const Distribution* dist : dists)
        if (compare_versions(dist->metadata.version, first->metadata.version) != 0)
            install.mismatches.push_back(
                first->metadata.name + " " + first->metadata.version + " and " + dist->metadata.name + " " +
                dist->metadata.version +
                " come from different JAX releases; jaxlib loads only a CUDA plugin of "
                "its own version");
    const Distribution* gpu = find_dist(dists, std::regex(R"(jax-cuda\d+-plugin)"));
    if (!gpu) gpu = find_dist(dists, plugin);
    if (gpu) {
        std::smatch match;
        std::regex_match(gpu->name, match, plugin);
        install.cuda_build = true;
        std::string floor = pinned(dists, std::regex(R"(nvidia-cuda-runtime(-cu\d+)?)"));
        install.cuda_version = match[1].str();
        if (!floor.empty() && floor.rfind(install.cuda_version + ".", 0) == 0)
            install.cuda_version = floor.substr(0, floor.find('.', floor.find('.') + 1));
        install.cuda_source = gpu->metadata.name + " (name and its nvidia-cuda-runtime requirement)";
        install.cudnn_version = pinned(dists, std::regex(R"(nvidia-cudnn(-cu\d+)?)"));
        install.nccl_version = pinned(dists, std::regex(R"(nvidia-nccl(-cu\d+)?)"));
        install.library_versions_are_floors =
            !pinned_exactly(dists, std::regex(R"(nvidia-cudnn(-cu\d+)?)")) ||
            !pinned_exactly(dists, std::regex(R"(nvidia-nccl(-cu\d+)?)"));
        return;
    }
    // jaxlib before the plugin split carried CUDA in its local version:
    // "0.4.20+cuda12.cudnn89".
    const Distribution* jaxlib = find_dist(dists, std::regex("jaxlib"));
    std::smatch match;
    static const std::regex local(R"(.*\+cuda(\d+)(\.cudnn(\d)(\d+))?)");
    if (jaxlib && std::regex_match(jaxlib->metadata.version, match, local)) {
        install.cuda_build = true;
        install.cuda_version = match[1].str();
        install.cuda_source = "jaxlib's version (" + jaxlib->metadata.version + ")";
        if (match[2].matched) install.cudnn_version = match[3].str() + "." + match[4].str();
        return;
    }
    install.build_kind = "a CPU-only build (no jax-cuda plugin installed)";
}

void read_tensorflow_build(FrameworkInstall& install, const std::vector<const Distribution*>& dists) {
    std::string file = file_ending(dists, "/tensorflow/python/platform/build_info.py");
    std::string text = file.empty() ? "" : read_text(file);
    auto cuda = python_string_value(text, "cuda_version");
    static const std::regex is_cuda(R"(['"]is_cuda_build['"]\s*[:,]\s*True)");
    if (cuda && std::regex_search(text, is_cuda)) {
        install.cuda_build = true;
        install.cuda_version = *cuda;
        install.cuda_source = site_relative(install, file);
        install.cudnn_version = python_string_value(text, "cudnn_version").value_or("");
    } else {
        install.build_kind = "a CPU-only build";
    }
}

void read_cupy_build(FrameworkInstall& install, const std::vector<const Distribution*>& dists) {
    std::string file = file_ending(dists, "/cupy/.data/_wheel.json");
    auto record = nlohmann::json::parse(file.empty() ? "" : read_text(file), nullptr, false);
    if (record.is_object() && record.contains("cuda") && record["cuda"].is_string()) {
        install.cuda_build = true;
        install.cuda_version = record["cuda"].get<std::string>();
        install.cuda_source = site_relative(install, file);
        if (record.contains("nccl") && record["nccl"].is_object() && record["nccl"].contains("version") &&
            record["nccl"]["version"].is_string())
            install.nccl_version = record["nccl"]["version"].get<std::string>();
        return;
    }
    // Older wheels name it: cupy-cuda12x (any 12.x), cupy-cuda117 (11.7).
    std::smatch match;
    for (const Distribution* dist : dists)
        if (std::regex_match(dist->name, match, std::regex(R"(cupy-cuda(\d+?)(\d|x))"))) {
            install.cuda_build = true;
            install.cuda_version = match[1].str() + "." + match[2].str();
            install.cuda_source = dist->metadata.name + " (the distribution's name)";
            return;
        }
    install.build_kind = "a build whose CUDA version its files do not record";
}

void read_onnxruntime_build(FrameworkInstall& install, const std::vector<const Distribution*>& dists) {
    std::string file = file_ending(dists, "/onnxruntime/capi/build_and_package_info.py");
    std::string text = file.empty() ? "" : read_text(file);
    if (auto cuda = python_string_value(text, "cuda_version"); cuda && !cuda->empty()) {
        install.cuda_build = true;
        install.cuda_version = *cuda;
        install.cuda_source = site_relative(install, file);
        install.cudnn_version = python_string_value(text, "cudnn_version").value_or("");
    } else if (!file_ending(dists, "/libonnxruntime_providers_cuda.so").empty()) {
        install.cuda_build = true;
        install.cuda_source = "onnxruntime/capi/libonnxruntime_providers_cuda.so (no recorded CUDA version)";
    } else {
        install.build_kind = "a CPU-only build";
    }
}

}  // namespace

std::optional<CudaRelease> parse_cuda_release(std::string_view text) {
    auto number = [&](size_t& at) -> std::optional<uint32_t> {
        size_t start = at;
        while (at < text.size() && at - start < 5 && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
        if (at == start || (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))))
            return std::nullopt;
        return static_cast<uint32_t>(std::stoul(std::string(text.substr(start, at - start))));
    };
    size_t at = 0;
    auto major = number(at);
    if (!major) return std::nullopt;
    CudaRelease out{*major, std::nullopt};
    if (at < text.size() && text[at] == '.') {
        ++at;
        out.minor = number(at);
    }
    return out;
}

void derive_cuda_from_binaries(FrameworkInstall& install) {
    if (!install.cuda_build) return;
    // No record says the CUDA version (ONNX Runtime without its build-info
    // file): the CUDA runtime (or cuBLAS/NVRTC, whose majors follow CUDA's)
    // its files link says the major.
    if (install.cuda_version.empty()) {
        static const std::regex runtime(R"(lib(cudart|cublas|nvrtc)\.so\.(\d+))");
        for (const LibraryNeed& need : install.libraries) {
            std::smatch match;
            if (!need.linked || !std::regex_match(need.soname, match, runtime)) continue;
            install.cuda_version = match[2].str();
            install.cuda_source = "the CUDA libraries it links (" + need.soname + ")";
            break;
        }
    }
    // Its own PTX says the oldest toolkit that can have made it (ISA 8.3 ->
    // CUDA 12.3): where that is newer than the record, the PTX is the truth
    // a driver's JIT meets.
    if (install.newest_ptx_isa.empty()) return;
    auto dot = install.newest_ptx_isa.find('.');
    auto from_isa = arch::cuda_for_ptx_isa(std::stoul(install.newest_ptx_isa.substr(0, dot)),
                                           std::stoul(install.newest_ptx_isa.substr(dot + 1)));
    if (!from_isa) return;
    auto release = parse_cuda_release(install.cuda_version);
    auto recorded = release ? std::optional<arch::CudaVersion>(release->version()) : std::nullopt;
    if (recorded && recorded->major == from_isa->major && recorded->minor >= from_isa->minor) return;
    if (recorded && recorded->major != from_isa->major) return;
    std::string said =
        install.cuda_version.empty() ? "" : "; " + install.cuda_source + " says " + install.cuda_version;
    install.cuda_version = from_isa->text();
    install.cuda_source = "its PTX ISA " + install.newest_ptx_isa + said;
}

void read_build_record(const FrameworkKind& kind, FrameworkInstall& install,
                       const std::vector<const Distribution*>& dists) {
    std::string_view id = kind.id;
    if (id == "torch") read_torch_build(install, dists);
    if (id == "jax") read_jax_build(install, dists);
    if (id == "tensorflow") read_tensorflow_build(install, dists);
    if (id == "cupy") read_cupy_build(install, dists);
    if (id == "onnxruntime") read_onnxruntime_build(install, dists);
}

}  // namespace strata
