#include "frameworks/framework_scan.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "diagnosis/rules.h"
#include "frameworks/nvidia_wheels.h"
#include "frameworks/python_metadata.h"
#include "strata/arch/binary.h"
#include "strata/arch/dynamic.h"
#include "strata/arch/mapped_file.h"

namespace strata {

namespace {

namespace fs = std::filesystem;

struct Distribution {
    std::string name;  // normalised
    PackageMetadata metadata;
    std::string site_dir;
    std::vector<std::string> files;  // absolute, from RECORD
};

std::string read_text(const fs::path& path, size_t limit = 4 << 20) {
    return read_file(path, limit).value_or("");
}

// Which framework a distribution belongs to.
struct Kind {
    const char* id;
    const char* name;
};
constexpr Kind kTorch{"torch", "PyTorch"}, kJax{"jax", "JAX"}, kTensorflow{"tensorflow", "TensorFlow"},
    kCupy{"cupy", "CuPy"}, kOnnxruntime{"onnxruntime", "ONNX Runtime"};

const Kind* classify(const std::string& name) {
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
        if (!classify(dist.name) && dist.name.rfind("nvidia-", 0) != 0) {
            out.push_back(std::move(dist));
            continue;
        }
        for (const std::string& relative : parse_record(read_text(info / "RECORD", 16 << 20)))
            dist.files.push_back((fs::path(site_dir) / relative).lexically_normal().string());
        out.push_back(std::move(dist));
    }
    return out;
}

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

void read_torch_build(FrameworkInstall& install, const std::vector<const Distribution*>& dists) {
    std::string file = file_ending(dists, "/torch/version.py");
    std::string text = file.empty() ? "" : read_text(file);
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

bool is_shared_library(const std::string& path) {
    std::string name = fs::path(path).filename().string();
    return name.ends_with(".so") || name.find(".so.") != std::string::npos;
}

// The CUDA libraries a framework may bring or need (the driver's own,
// libcuda and NVML, belong to the driver layer).
bool is_cuda_library(const std::string& soname) {
    static const std::regex pattern(
        R"(lib(cudart|cublas|cublasLt|cudnn\w*|nccl|cufft\w*|curand|cusolver\w*|cusparse\w*|nvrtc|nvrtc-builtins|)"
        R"(nvJitLink|cupti|nvToolsExt|cutensor\w*|nvshmem\w*|nvblas|npp\w*|nvjpeg|cudss)\.so\.\d+)");
    return std::regex_match(soname, pattern);
}

struct WheelFile {
    std::string wheel, version, path;
};

// Every CUDA library an nvidia-* wheel installed in this environment, by soname.
std::map<std::string, WheelFile> wheel_libraries(const std::vector<Distribution>& all) {
    std::map<std::string, WheelFile> out;
    for (const Distribution& dist : all) {
        if (dist.name.rfind("nvidia-", 0) != 0) continue;
        for (const std::string& file : dist.files) {
            std::string soname = soname_from_file_name(fs::path(file).filename().string());
            if (is_cuda_library(soname) && !out.count(soname))
                out[soname] = {dist.name, dist.metadata.version, file};
        }
    }
    return out;
}

// The version of a copy: the wheel's that installed it, else the version in
// its resolved file name (libcudnn.so.9.0.0 -> 9.0.0).
std::string copy_version(const LibraryLocation& copy, const std::string& soname,
                         const std::map<std::string, std::string>& wheel_owner) {
    std::error_code error;
    std::string real = fs::weakly_canonical(copy.real_path, error).string();
    if (auto it = wheel_owner.find(real); it != wheel_owner.end()) return it->second;
    std::string stem = soname.substr(0, soname.find(".so.") + 3);
    std::string version = version_from_library_path(copy.real_path, stem);
    return version;
}

std::string expected_version(const FrameworkInstall& install, const std::string& soname,
                             const WheelFile* wheel) {
    if (wheel) return wheel->version;
    if (soname.rfind("libcudnn", 0) == 0) return install.cudnn_version;
    if (soname.rfind("libnccl", 0) == 0) return install.nccl_version;
    return {};
}

void read_files(const ProbeContext& context, FrameworkInstall& install,
                const std::vector<const Distribution*>& dists, const std::vector<Distribution>& all) {
    struct ElfDynamic {
        std::string path;
        arch::DynamicInfo dynamic;
    };
    std::vector<ElfDynamic> elves;
    std::set<std::string> seen;
    for (const Distribution* dist : dists)
        for (const std::string& path : dist->files) {
            if (!is_shared_library(path) || !seen.insert(path).second) continue;
            auto file = arch::MappedFile::open(path);
            if (!file) {
                install.problems.push_back(path + ": " + file.error());
                continue;
            }
            if (!arch::looks_like_elf(file->bytes())) continue;
            ++install.elf_files;
            auto elf = arch::parse_elf(file->bytes());
            if (!elf) {
                install.problems.push_back(path + ": " + elf.error());
                continue;
            }
            if (auto dynamic = arch::read_dynamic(*elf))
                elves.push_back({path, std::move(*dynamic)});
            else
                install.problems.push_back(path + ": " + dynamic.error());
            auto listing = arch::read_binary(file->bytes());
            if (!listing) {
                install.problems.push_back(path + ": " + listing.error());
                continue;
            }
            if (listing->scan.images.empty()) continue;
            DeviceCodeFile code;
            code.path = path;
            std::pair<unsigned, unsigned> newest_isa{0, 0};
            for (const arch::FatbinImage& image : listing->scan.images) {
                auto& list = image.kind == arch::ImageKind::ptx ? code.ptx : code.sass;
                if (image.kind != arch::ImageKind::ptx && image.kind != arch::ImageKind::sass) continue;
                std::string target = image.target_name();
                if (std::find(list.begin(), list.end(), target) == list.end()) list.push_back(target);
                if (image.kind == arch::ImageKind::ptx)
                    newest_isa = std::max(newest_isa, {image.version_major, image.version_minor});
            }
            if (newest_isa.first)
                code.newest_ptx_isa =
                    std::to_string(newest_isa.first) + "." + std::to_string(newest_isa.second);
            if (!code.sass.empty() || !code.ptx.empty()) install.device_code.push_back(std::move(code));
        }

    // Which copy of each CUDA library the loader gives the framework: the
    // ones its files link, and the ones its dependency wheels ship (loaded
    // with dlopen by name, as JAX's plugin and cuDNN's sub-libraries are).
    std::map<std::string, WheelFile> shipped = wheel_libraries(all);
    std::map<std::string, std::string> wheel_owner;  // canonical path -> "version"
    for (const auto& [soname, file] : shipped) {
        std::error_code error;
        wheel_owner[fs::weakly_canonical(file.path, error).string()] = file.version;
    }
    std::set<std::string> dependency_wheels;
    for (const WheelDependency& dependency : install.dependencies)
        if (!dependency.installed.empty()) dependency_wheels.insert(dependency.name);

    const ElfDynamic* representative = nullptr;  // the file whose search path a dlopen uses
    for (const ElfDynamic& elf : elves)
        if (!elf.dynamic.rpath.empty() || !elf.dynamic.runpath.empty()) {
            representative = &elf;
            break;
        }
    if (!representative && !elves.empty()) representative = &elves.front();

    std::map<std::string, LibraryNeed> needs;
    for (const ElfDynamic& elf : elves)
        for (const std::string& soname : elf.dynamic.needed)
            if (is_cuda_library(soname) && !needs.count(soname)) {
                LibraryNeed need;
                need.soname = soname;
                need.needed_by = elf.path;
                need.linked = true;
                needs[soname] = need;
            }
    if (representative)
        for (const auto& [soname, file] : shipped)
            if (dependency_wheels.count(file.wheel) && !needs.count(soname)) {
                LibraryNeed need;
                need.soname = soname;
                need.needed_by = representative->path;
                needs[soname] = need;
            }
    // Dependencies that are not installed: the framework still looks for
    // their libraries, and gets the system's copies (or none).
    if (representative)
        for (const WheelDependency& dependency : install.dependencies) {
            if (!dependency.installed.empty()) continue;
            std::string floor = specifier_floor(dependency.specifier);
            for (const std::string& soname : wheel_sonames(dependency.name, floor)) {
                if (needs.count(soname)) continue;
                LibraryNeed need;
                need.soname = soname;
                need.needed_by = representative->path;
                need.missing_wheel = dependency.name;
                need.optional = !dependency.extra.empty();
                need.expected = floor;
                needs[soname] = need;
            }
        }
    // A linked library is essential when a plain (not extra) dependency
    // ships it or the file that links it carries device code; otherwise it
    // backs an optional module (CuPy's cuTENSOR), whose absence only
    // disables that module.
    std::set<std::string> essential, with_code;
    for (const WheelDependency& dependency : install.dependencies)
        if (dependency.extra.empty())
            for (const std::string& soname : wheel_sonames(
                     dependency.name, dependency.installed.empty() ? specifier_floor(dependency.specifier)
                                                                   : dependency.installed))
                essential.insert(soname);
    for (const DeviceCodeFile& file : install.device_code) with_code.insert(file.path);
    for (auto& [soname, need] : needs)
        if (need.linked) need.optional = !essential.count(soname) && !with_code.count(need.needed_by);
    const LibrarySearch& search = context.library_search();
    for (auto& [soname, need] : needs) {
        const ElfDynamic* by = nullptr;
        for (const ElfDynamic& elf : elves)
            if (elf.path == need.needed_by) by = &elf;
        auto it = shipped.find(soname);
        const WheelFile* wheel =
            it != shipped.end() && dependency_wheels.count(it->second.wheel) ? &it->second : nullptr;
        if (wheel) {
            need.wheel = wheel->wheel;
            need.wheel_copy = wheel->path;
        }
        if (need.expected.empty()) need.expected = expected_version(install, soname, wheel);
        static const std::vector<std::string> none;
        need.candidates = search.find_all_from(soname, need.needed_by, by ? by->dynamic.rpath : none,
                                               by ? by->dynamic.runpath : none);
        for (const LibraryLocation& copy : need.candidates)
            need.versions.push_back(copy_version(copy, soname, wheel_owner));
        install.libraries.push_back(std::move(need));
    }
}

}  // namespace

const char* known_frameworks_text() {
    return "PyTorch, JAX, TensorFlow, CuPy or ONNX Runtime";
}

std::vector<FrameworkInstall> scan_frameworks(const ProbeContext& context,
                                              const std::vector<PythonEnvironment>& environments) {
    std::vector<FrameworkInstall> out;
    std::map<std::string, int> ids;
    for (const PythonEnvironment& env : environments) {
        // Every distribution the environment can import, for dependency lookups.
        std::vector<Distribution> all;
        for (const std::string& dir : env.directories)
            for (Distribution& dist : read_distributions(dir)) all.push_back(std::move(dist));
        std::map<std::string, std::string> installed;  // name -> version (first wins, as imports do)
        for (const Distribution& dist : all) installed.emplace(dist.name, dist.metadata.version);

        // Group by framework, per directory (a framework lives in one place).
        std::map<std::pair<std::string, std::string>, std::vector<const Distribution*>> groups;
        std::vector<std::pair<std::string, std::string>> order;
        for (const Distribution& dist : all)
            if (const Kind* kind = classify(dist.name)) {
                auto key = std::make_pair(dist.site_dir, std::string(kind->id));
                if (!groups.count(key)) order.push_back(key);
                groups[key].push_back(&dist);
            }
        for (const auto& key : order) {
            const std::vector<const Distribution*>& dists = groups[key];
            const Kind* kind = classify(dists.front()->name);
            FrameworkInstall install;
            int count = ++ids[kind->id];
            install.id = count == 1 ? kind->id : std::string(kind->id) + "-" + std::to_string(count);
            install.name = kind->name;
            install.environment = env.label;
            install.site_dir = key.first;
            for (const Distribution* dist : dists)
                install.distributions.push_back(dist->metadata.name + " " + dist->metadata.version);
            // The framework's own version: the package users import.
            const Distribution* primary = dists.front();
            for (const Distribution* dist : dists)
                if (dist->name == kind->id || dist->name == "jaxlib" || dist->name == "onnxruntime-gpu")
                    primary = dist;
            install.version = primary->metadata.version;
            for (const Distribution* dist : dists)
                for (const Requirement& requirement : dist->metadata.requires_dist) {
                    // NVIDIA's wheels, and the framework's own parts (the PJRT
                    // plugin a jax-cuda plugin pins).
                    bool nvidia =
                        requirement.name.rfind("nvidia-", 0) == 0 || requirement.name == "cuda-toolkit";
                    if (!nvidia && classify(requirement.name) != kind) continue;
                    bool listed = false;
                    for (const WheelDependency& existing : install.dependencies)
                        listed = listed || existing.name == requirement.name;
                    if (listed) continue;
                    auto it = installed.find(requirement.name);
                    install.dependencies.push_back({requirement.name, requirement.specifier,
                                                    requirement.extra,
                                                    it == installed.end() ? "" : it->second});
                }
            std::string id = kind->id;
            if (id == "torch") read_torch_build(install, dists);
            if (id == "jax") read_jax_build(install, dists);
            if (id == "tensorflow") read_tensorflow_build(install, dists);
            if (id == "cupy") read_cupy_build(install, dists);
            if (id == "onnxruntime") read_onnxruntime_build(install, dists);
            read_files(context, install, dists, all);
            out.push_back(std::move(install));
        }
    }
    return out;
}

}  // namespace strata
