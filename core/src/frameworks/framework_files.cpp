#include "frameworks/framework_files.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

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
            bool has_code = false;
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

// Which copy of each CUDA library the loader gives the framework: the ones
// its files link, and the ones its dependency wheels ship (loaded with dlopen
// by name, as JAX's plugin and cuDNN's sub-libraries are).
void resolve_libraries(const ProbeContext& context, FrameworkInstall& install,
                       const std::vector<ElfDynamic>& elves, const std::vector<Distribution>& all) {
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
    with_code.insert(install.device_code_files.begin(), install.device_code_files.end());
    for (auto& [soname, need] : needs)
        if (need.linked) need.optional = !essential.count(soname) && !with_code.count(need.needed_by);
    std::map<std::string, const arch::DynamicInfo*> dynamic_of;
    for (const ElfDynamic& elf : elves) dynamic_of[elf.path] = &elf.dynamic;
    const LibrarySearch& search = context.library_search();
    for (auto& [soname, need] : needs) {
        auto found = dynamic_of.find(need.needed_by);
        const arch::DynamicInfo* by = found == dynamic_of.end() ? nullptr : found->second;
        auto it = shipped.find(soname);
        const WheelFile* wheel =
            it != shipped.end() && dependency_wheels.count(it->second.wheel) ? &it->second : nullptr;
        if (wheel) {
            need.wheel = wheel->wheel;
            need.wheel_copy = wheel->path;
        }
        if (need.expected.empty()) need.expected = expected_version(install, soname, wheel);
        static const std::vector<std::string> none;
        need.candidates =
            search.find_all_from(soname, need.needed_by, by ? by->rpath : none, by ? by->runpath : none);
        for (const LibraryLocation& copy : need.candidates)
            need.versions.push_back(copy_version(copy, soname, wheel_owner));
        install.libraries.push_back(std::move(need));
    }
}

}  // namespace

void read_framework_files(const ProbeContext& context, FrameworkInstall& install,
                          const std::vector<const Distribution*>& dists,
                          const std::vector<Distribution>& all) {
    resolve_libraries(context, install, read_shared_libraries(install, dists), all);
}

}  // namespace strata
