#include "frameworks/framework_files.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <tuple>

#include "diagnosis/rules.h"
#include "frameworks/nvidia_wheels.h"
#include "frameworks/python_metadata.h"
#include "strata/arch/binary.h"
#include "strata/arch/dynamic.h"
#include "strata/arch/mapped_file.h"
#include "strata/arch/tables.h"

namespace strata {

namespace {

namespace fs = std::filesystem;

// The CUDA libraries a framework may bring or need (the driver's own,
// libcuda and NVML, belong to the driver layer), by name.
constexpr const char* kCudaLibraryNames =
    R"((cudart|cublas|cublasLt|cudnn\w*|nccl|cufft\w*|curand|cusolver\w*|cusparse\w*|nvrtc|nvrtc-builtins|)"
    R"(nvJitLink|cupti|nvToolsExt|cutensor\w*|nvshmem\w*|nvblas|npp\w*|nvjpeg|cudss))";

bool is_cuda_library(const std::string& soname) {
    static const std::regex pattern(std::string("lib") + kCudaLibraryNames + R"(\.so\.\d+)");
    return std::regex_match(soname, pattern);
}

// Libraries a framework's own install guide requires, whatever its wheel's
// metadata says. CuPy requires the CUDA Toolkit (cudart, NVRTC, which
// compiles nearly every CuPy kernel, cuBLAS, cuFFT, cuRAND, cuSOLVER,
// cuSPARSE), from the system or from PyPI through its [ctk] extra, and lists
// cuDNN, cuTENSOR, NCCL and cuSPARSELt as optional ("part of the CUDA
// features … activated only when installed").
// Returns the extra that installs them from PyPI ("ctk", in the CuPy
// releases that declare it), or "" for a library no guide requires.
std::string documented_as_required(const FrameworkInstall& install, const std::string& soname) {
    static const std::regex cupy_toolkit(
        R"(lib(cudart|nvrtc|cublas|cublasLt|cufft|curand|cusolver|cusparse)\.so\.\d+)");
    return install.name == "CuPy" && std::regex_match(soname, cupy_toolkit) ? "ctk" : "";
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
            // A listed file that is gone (a broken install) ships nothing.
            std::error_code error;
            if (is_cuda_library(soname) && !out.count(soname) && fs::exists(file, error))
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

struct ElfDynamic {
    std::string path;
    arch::DynamicInfo dynamic;
};

// Reads every shared library the framework installed once: its device code
// (into the install's coverage) and its dynamic section (returned).
std::vector<ElfDynamic> read_shared_libraries(FrameworkInstall& install,
                                              const std::vector<const Distribution*>& dists) {
    std::vector<ElfDynamic> elves;
    std::set<std::string> seen;
    std::pair<unsigned, unsigned> newest_isa{0, 0};
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
            // The ELF is parsed once; a cubin misnamed .so still goes through read_binary.
            arch::FatbinScan scan;
            if (elf->machine == arch::elf_machine_cuda) {
                auto listing = arch::read_binary(file->bytes());
                if (!listing) {
                    install.problems.push_back(path + ": " + listing.error());
                    continue;
                }
                scan = std::move(listing->scan);
            } else {
                scan = arch::scan_elf(*elf);
            }
            if (file->changed_while_read()) {
                install.problems.push_back(path + ": the file was truncated while it was read");
                continue;
            }
            bool has_code = false;
            if (is_vendored_cuda_library(path)) {
                for (const arch::FatbinImage& image : scan.images)
                    has_code =
                        has_code || image.kind == arch::ImageKind::ptx || image.kind == arch::ImageKind::sass;
                if (has_code) install.vendored_files.push_back(path);
                continue;
            }
            for (const arch::FatbinImage& image : scan.images) {
                if (image.kind != arch::ImageKind::ptx && image.kind != arch::ImageKind::sass) continue;
                has_code = true;
                auto& list = image.kind == arch::ImageKind::ptx ? install.ptx : install.sass;
                std::string target = image.target_name();
                if (std::find(list.begin(), list.end(), target) == list.end()) list.push_back(target);
                if (image.kind == arch::ImageKind::ptx)
                    newest_isa = std::max(newest_isa, {image.version_major, image.version_minor});
            }
            if (has_code) install.device_code_files.push_back(path);
        }
    if (newest_isa.first)
        install.newest_ptx_isa = std::to_string(newest_isa.first) + "." + std::to_string(newest_isa.second);
    auto by_sm = [](const std::string& a, const std::string& b) {
        auto sm = [](const std::string& name) { return arch::parse_compute_capability(name).value_or(0); };
        return sm(a) != sm(b) ? sm(a) < sm(b) : a < b;
    };
    std::sort(install.sass.begin(), install.sass.end(), by_sm);
    std::sort(install.ptx.begin(), install.ptx.end(), by_sm);
    return elves;
}

// The dynamic section of a library strata did not install itself (a copy
// the loader picks), read once per path; nullptr when it cannot be read.
class DynamicCache {
public:
    const arch::DynamicInfo* get(const std::string& path) {
        auto [it, fresh] = cache_.try_emplace(path);
        if (!fresh) return it->second ? &*it->second : nullptr;
        auto file = arch::MappedFile::open(path);
        if (!file || !arch::looks_like_elf(file->bytes())) return nullptr;
        auto elf = arch::parse_elf(file->bytes());
        if (!elf) return nullptr;
        auto dynamic = arch::read_dynamic(*elf);
        if (!dynamic) return nullptr;
        it->second = std::move(*dynamic);
        return &*it->second;
    }

private:
    std::map<std::string, std::optional<arch::DynamicInfo>> cache_;
};

// The CUDA major a library copy was built for, from what it says itself: the
// CUDA-major sonames it links (CUDA 13's libcusparse.so.12 links
// libnvJitLink.so.13; its soname alone cannot tell), or NCCL's version string
// ("NCCL version 2.28.9+cuda13.0"). Empty when it says nothing.
std::pair<std::string, std::string> built_for_cuda(const std::string& path, const std::string& soname,
                                                   const arch::DynamicInfo* dynamic) {
    static const std::regex majored(R"(lib(cudart|cublas|cublasLt|nvJitLink|nvrtc)\.so\.(\d+))");
    std::smatch match;
    if (std::regex_match(soname, match, majored)) return {match[2].str(), "its soname"};
    if (dynamic)
        for (const std::string& needed : dynamic->needed)
            if (std::regex_match(needed, match, majored)) return {match[2].str(), "it links " + needed};
    if (soname.rfind("libnccl.so.", 0) == 0) {
        auto file = arch::MappedFile::open(path);
        if (!file) return {};
        std::string_view bytes = file->bytes();
        size_t at = bytes.find("NCCL version ");
        if (at == std::string_view::npos) return {};
        std::string text(bytes.substr(at, 64));
        text = text.substr(0, text.find('\0'));
        static const std::regex nccl(R"(NCCL version [\d.]+\+cuda(\d+)\.\d+.*)");
        if (std::regex_match(text, match, nccl)) return {match[1].str(), "its version string '" + text + "'"};
    }
    return {};
}

// cuDNN's sub-libraries (libcudnn_ops_infer.so.8, libcudnn_graph.so.9, ...):
// libcudnn.so.N dlopens them by name, so they are searched with *its*
// RPATH/RUNPATH ($ORIGIN: its own directory), as glibc does for the caller of
// dlopen. Listed from the directory of the copy that was loaded.
std::vector<std::string> cudnn_sublibraries(const std::string& loaded_copy, const std::string& soname) {
    std::string major = soname.substr(soname.find(".so.") + 4);
    std::vector<std::string> out;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(fs::path(loaded_copy).parent_path(),
                                                    fs::directory_options::skip_permission_denied, error)) {
        std::string name = entry.path().filename().string();
        if (name.rfind("libcudnn_", 0) == 0 && name.size() > major.size() + 4 &&
            name.ends_with(".so." + major) && std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Which copy of each CUDA library the loader gives the framework, following
// glibc: a library a framework file links (DT_NEEDED) is searched with that
// file's RPATH/RUNPATH; a library *that copy* links or dlopens is searched
// with the copy's own (libcublas.so.12 -> libcublasLt.so.12 through its
// $ORIGIN; libcudnn.so.8 -> its sub-libraries). Dependency wheels count with
// the libraries a framework loads by name (JAX's plugin dlopens them), not
// with every file they carry (libcufftw, libnvblas, libcusolverMg are never
// loaded by a framework and would only be noise).
void resolve_libraries(const ProbeContext& context, FrameworkInstall& install,
                       const std::vector<ElfDynamic>& elves, const std::vector<Distribution>& all) {
    std::map<std::string, WheelFile> shipped = wheel_libraries(all);
    std::map<std::string, std::string> wheel_owner;  // canonical path -> "version"
    for (const auto& [soname, file] : shipped) {
        std::error_code error;
        wheel_owner[fs::weakly_canonical(file.path, error).string()] = file.version;
    }
    // The framework's installed nvidia-* wheels and, as pip installs them,
    // theirs (nvidia-cudnn-cu13 brings nvidia-cublas, nvidia-cufft brings
    // nvidia-nvjitlink): the environment's own copies of what the loader finds.
    std::map<std::string, const Distribution*> installed;  // first wins, as imports do
    for (const Distribution& dist : all) installed.emplace(dist.name, &dist);
    std::set<std::string> dependency_wheels;
    std::vector<const Distribution*> pending;
    for (const WheelDependency& dependency : install.dependencies)
        if (auto it = installed.find(dependency.name);
            it != installed.end() && dependency_wheels.insert(dependency.name).second)
            pending.push_back(it->second);
    while (!pending.empty()) {
        const Distribution* dist = pending.back();
        pending.pop_back();
        for (const Requirement& requirement : dist->metadata.requires_dist) {
            auto it = installed.find(requirement.name);
            if (requirement.extra.empty() && requirement.name.rfind("nvidia-", 0) == 0 &&
                it != installed.end() && dependency_wheels.insert(requirement.name).second)
                pending.push_back(it->second);
        }
    }

    const ElfDynamic* representative = nullptr;  // the file whose search path a dlopen uses
    for (const ElfDynamic& elf : elves)
        if (!elf.dynamic.rpath.empty() || !elf.dynamic.runpath.empty()) {
            representative = &elf;
            break;
        }
    if (!representative && !elves.empty()) representative = &elves.front();

    std::map<std::string, LibraryNeed> needs;
    std::vector<std::string> order;  // sonames in the order they were found
    auto add_need = [&](LibraryNeed need) {
        if (needs.count(need.soname)) return;
        order.push_back(need.soname);
        needs[need.soname] = std::move(need);
    };
    for (const ElfDynamic& elf : elves)
        for (const std::string& soname : elf.dynamic.needed)
            if (is_cuda_library(soname)) {
                LibraryNeed need;
                need.soname = soname;
                need.needed_by = elf.path;
                need.linked = true;
                add_need(need);
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
    with_code.insert(install.device_code_files.begin(), install.device_code_files.end());
    for (auto& [soname, need] : needs)
        if (need.linked)
            need.optional = !essential.count(soname) && !with_code.count(need.needed_by) &&
                            documented_as_required(install, soname).empty();

    std::map<std::string, const arch::DynamicInfo*> dynamic_of;
    for (const ElfDynamic& elf : elves) dynamic_of[elf.path] = &elf.dynamic;
    DynamicCache loaded_copies;
    const LibrarySearch& search = context.library_search();
    // A worklist: resolving a library can add the libraries its copy needs.
    size_t next = 0;
    auto drain = [&] {
        for (; next < order.size(); ++next) {
            LibraryNeed need = needs[order[next]];
            const arch::DynamicInfo* by = nullptr;
            if (auto found = dynamic_of.find(need.needed_by); found != dynamic_of.end())
                by = found->second;
            else
                by = loaded_copies.get(need.needed_by);
            auto it = shipped.find(need.soname);
            const WheelFile* wheel =
                it != shipped.end() && dependency_wheels.count(it->second.wheel) ? &it->second : nullptr;
            if (wheel) {
                need.wheel = wheel->wheel;
                need.wheel_copy = wheel->path;
            }
            if (need.expected.empty()) need.expected = expected_version(install, need.soname, wheel);
            static const std::vector<std::string> none;
            need.candidates = search.find_all_from(need.soname, need.needed_by, by ? by->rpath : none,
                                                   by ? by->runpath : none);
            // Loaded by path before the extension module that needs it: an
            // already-loaded soname is what the loader then gives.
            if (!install.wheel_preloader.empty() && it != shipped.end() && dynamic_of.count(need.needed_by)) {
                std::error_code error;
                std::string real = fs::weakly_canonical(it->second.path, error).string();
                std::erase_if(need.candidates, [&](const LibraryLocation& copy) {
                    return fs::weakly_canonical(copy.real_path, error).string() == real;
                });
                need.candidates.insert(need.candidates.begin(), {it->second.path, real,
                                                                 "preloaded from the " + it->second.wheel +
                                                                     " wheel by " + install.wheel_preloader});
            }
            for (const LibraryLocation& copy : need.candidates)
                need.versions.push_back(copy_version(copy, need.soname, wheel_owner));
            if (!need.candidates.empty()) {
                // What the copy the loader picks brings along, searched its way.
                const std::string& chosen = need.candidates.front().path;
                std::tie(need.built_for_cuda, need.built_for_evidence) =
                    built_for_cuda(chosen, need.soname, loaded_copies.get(chosen));
                if (const arch::DynamicInfo* copy = loaded_copies.get(chosen))
                    for (const std::string& soname : copy->needed) {
                        if (!is_cuda_library(soname)) continue;
                        LibraryNeed dependency;
                        dependency.soname = soname;
                        dependency.needed_by = chosen;
                        dependency.linked = true;
                        dependency.optional = need.optional;
                        auto known = needs.find(soname);
                        if (known == needs.end()) {
                            add_need(dependency);
                        } else if (!known->second.linked && known->second.candidates.empty()) {
                            // A by-name guess that found nothing: this copy
                            // links it, and its search path is the loader's.
                            dependency.missing_wheel = known->second.missing_wheel;
                            dependency.expected = known->second.expected;
                            known->second = dependency;
                            order.push_back(soname);
                        }
                    }
                if (need.soname.rfind("libcudnn.so.", 0) == 0)
                    for (const std::string& soname : cudnn_sublibraries(chosen, need.soname)) {
                        if (needs.count(soname)) continue;
                        LibraryNeed sublibrary;
                        sublibrary.soname = soname;
                        sublibrary.needed_by = chosen;
                        sublibrary.optional = need.optional;
                        add_need(sublibrary);
                    }
            }
            needs[order[next]] = need;
        }
    };
    // What the framework links, and what those copies link or dlopen, first:
    // a library found that way is where the loader really looks for it, so
    // a by-name guess below (from the framework's own search path) must not
    // take its place (torch 2.10 lists nvidia-nvjitlink, which only
    // libcusparse's RUNPATH finds).
    drain();
    // Which of the framework's files loads a library by name is not written
    // anywhere: the one whose own RPATH/RUNPATH leads to a copy was built to
    // (TensorFlow's libtensorflow_framework.so.2 among 77 libraries), else
    // the representative.
    // Bounded: a real framework has under a hundred such files (TensorFlow 77);
    // a hostile tree of thousands must not cost a search per file per library.
    constexpr size_t kMaxLoaderCandidates = 256;
    auto loader_of = [&](const std::string& soname) -> const std::string& {
        size_t tried = 0;
        for (const ElfDynamic& elf : elves) {
            if (elf.dynamic.rpath.empty() && elf.dynamic.runpath.empty()) continue;
            if (++tried > kMaxLoaderCandidates) break;
            auto found = search.find_all_from(soname, elf.path, elf.dynamic.rpath, elf.dynamic.runpath);
            if (!found.empty() && found.front().via.rfind("DT_R", 0) == 0) return elf.path;
        }
        return representative->path;
    };
    // What the installed dependency wheels are for: their primary libraries,
    // loaded by name from the framework's own file.
    if (representative)
        for (const WheelDependency& dependency : install.dependencies) {
            if (dependency.installed.empty()) continue;
            for (const std::string& soname : wheel_sonames(dependency.name, dependency.installed)) {
                if (!shipped.count(soname) || needs.count(soname)) continue;
                LibraryNeed need;
                need.soname = soname;
                need.needed_by = loader_of(soname);
                add_need(need);
            }
        }
    // Dependencies that are not installed: the framework still looks for
    // their libraries, and gets the system's copies (or none).
    if (representative)
        for (const WheelDependency& dependency : install.dependencies) {
            if (!dependency.installed.empty()) continue;
            std::string floor = specifier_floor(dependency.specifier);
            for (const std::string& soname : wheel_sonames(dependency.name, floor)) {
                if (auto found = needs.find(soname); found != needs.end()) {
                    // Already linked from elsewhere: still, the wheel that
                    // should have brought it is the fix to name.
                    if (found->second.missing_wheel.empty()) found->second.missing_wheel = dependency.name;
                    if (found->second.expected.empty()) found->second.expected = floor;
                    if (found->second.extra.empty()) found->second.extra = dependency.extra;
                    continue;
                }
                LibraryNeed need;
                need.soname = soname;
                need.needed_by = representative->path;
                need.missing_wheel = dependency.name;
                need.extra = dependency.extra;
                need.optional = !dependency.extra.empty() && documented_as_required(install, soname).empty();
                need.expected = floor;
                add_need(need);
            }
        }
    drain();
    // The [ctk] extra exists in cupy-cuda12x and cupy-cuda13x releases (an
    // older one is upgraded to get it), not in cupy-cuda11x or a source
    // build: for those the fix is the toolkit itself, never an extra that
    // pip would say does not exist.
    static const std::regex has_toolkit_extra(R"(cupy-cuda1[2-9]x)");
    bool extra_exists =
        std::regex_match(install.distribution, has_toolkit_extra) ||
        std::any_of(install.dependencies.begin(), install.dependencies.end(),
                    [](const WheelDependency& dependency) { return dependency.extra == "ctk"; });
    for (auto& [soname, need] : needs) {
        std::string guide_extra = documented_as_required(install, soname);
        need.required_by_guide = !guide_extra.empty();
        if (need.extra.empty() && extra_exists) need.extra = guide_extra;
        install.libraries.push_back(std::move(need));
    }
}

}  // namespace

bool is_shared_library(const std::string& path) {
    std::string name = fs::path(path).filename().string();
    return name.ends_with(".so") || name.find(".so.") != std::string::npos;
}

bool is_vendored_cuda_library(const std::string& path) {
    static const std::regex pattern(std::string("lib") + kCudaLibraryNames +
                                    R"([-.][0-9a-f]{8}\.so(\.\d+)*)");
    return std::regex_match(fs::path(path).filename().string(), pattern);
}

void read_framework_files(const ProbeContext& context, FrameworkInstall& install,
                          const std::vector<const Distribution*>& dists,
                          const std::vector<Distribution>& all) {
    resolve_libraries(context, install, read_shared_libraries(install, dists), all);
}

}  // namespace strata
