#include "frameworks/framework_extensions.h"

#include <algorithm>
#include <filesystem>
#include <regex>

#include "frameworks/framework_files.h"
#include "strata/arch/dynamic.h"
#include "strata/arch/elf.h"
#include "strata/arch/fatbin.h"
#include "strata/arch/mapped_file.h"

namespace strata {

namespace {

namespace fs = std::filesystem;

const Requirement* framework_requirement(const Distribution& dist,
                                         const std::vector<std::string>& framework_names) {
    for (const Requirement& requirement : dist.metadata.requires_dist)
        if (requirement.extra.empty() && std::find(framework_names.begin(), framework_names.end(),
                                                   requirement.name) != framework_names.end())
            return &requirement;
    return nullptr;
}

// The CUDA major of a CUDA runtime soname, plain or as auditwheel renames a
// vendored copy: libcudart.so.13, libcudart-9f3c1a2b.so.12, libcudart.3eda8113.so.13.
std::string cudart_major(const std::string& name) {
    static const std::regex pattern(R"(libcudart(?:[-.][0-9a-f]{8})?\.so\.(\d+)(?:\.[\d.]*)?)");
    std::smatch match;
    return std::regex_match(name, match, pattern) ? match[1].str() : "";
}

FrameworkExtension read_extension(const Distribution& dist) {
    FrameworkExtension out;
    out.name = dist.metadata.name;
    out.version = dist.metadata.version;
    std::string vendored_cudart;
    for (const std::string& path : dist.files) {
        if (!is_shared_library(path)) continue;
        std::string name = fs::path(path).filename().string();
        if (std::string major = cudart_major(name); !major.empty()) {
            vendored_cudart = major;
            continue;
        }
        if (is_vendored_cuda_library(path)) continue;
        auto file = arch::MappedFile::open(path);
        if (!file) {
            out.problems.push_back(path + ": " + file.error());
            continue;
        }
        if (!arch::looks_like_elf(file->bytes())) continue;
        auto elf = arch::parse_elf(file->bytes());
        if (!elf) {
            out.problems.push_back(path + ": " + elf.error());
            continue;
        }
        arch::FatbinScan scan = arch::scan_elf(*elf);
        bool has_code =
            std::any_of(scan.images.begin(), scan.images.end(), [](const arch::FatbinImage& image) {
                return image.kind == arch::ImageKind::sass || image.kind == arch::ImageKind::ptx;
            });
        if (!has_code) continue;
        if (file->changed_while_read()) {
            out.problems.push_back(path + ": the file was truncated while it was read");
            continue;
        }
        out.device_code_files.push_back(path);
        if (!out.cuda_major.empty()) continue;
        if (auto dynamic = arch::read_dynamic(*elf))
            for (const std::string& needed : dynamic->needed)
                if (std::string major = cudart_major(needed); !major.empty()) {
                    out.cuda_major = major;
                    out.cuda_evidence = name + " links " + needed;
                    break;
                }
    }
    if (out.cuda_major.empty() && !vendored_cudart.empty() && !out.device_code_files.empty()) {
        out.cuda_major = vendored_cudart;
        out.cuda_evidence = "its wheel carries the CUDA " + vendored_cudart + " runtime";
    }
    std::sort(out.device_code_files.begin(), out.device_code_files.end());
    return out;
}

}  // namespace

std::vector<FrameworkExtension> read_framework_extensions(const std::vector<std::string>& framework_names,
                                                          const std::vector<Distribution>& all) {
    std::vector<FrameworkExtension> out;
    for (const Distribution& dist : all) {
        if (classify_distribution(dist.name) || dist.name.rfind("nvidia-", 0) == 0) continue;
        const Requirement* requirement = framework_requirement(dist, framework_names);
        if (!requirement) continue;
        if (std::any_of(out.begin(), out.end(),
                        [&](const FrameworkExtension& seen) { return seen.name == dist.metadata.name; }))
            continue;  // a second copy further down the path is shadowed, as imports are
        FrameworkExtension extension = read_extension(dist);
        extension.requires_name = requirement->name;
        extension.requires_specifier = requirement->specifier;
        if (!extension.device_code_files.empty() || !extension.problems.empty())
            out.push_back(std::move(extension));
    }
    return out;
}

}  // namespace strata
