#include "diagnosis/image_verdicts.h"

#include <filesystem>

#include "diagnosis/fact_access.h"
#include "strata/arch/binary.h"
#include "strata/arch/compatibility.h"
#include "strata/arch/mapped_file.h"

namespace strata {

GpuDiscovery gpus_from_facts(const Report& report) {
    GpuDiscovery out;
    auto count = fact_int(report, "device.count");
    for (long long i = 0; count && i < *count; ++i) {
        std::string prefix = "device." + std::to_string(i) + ".";
        auto cc = fact_string(report, prefix + "compute_capability");
        auto sm = cc ? arch::parse_compute_capability(*cc) : std::nullopt;
        if (sm)
            out.gpus.push_back(
                {static_cast<unsigned>(i), fact_string(report, prefix + "name").value_or(""), *sm});
    }
    for (const char* key : {"driver.nvml.driver_version", "driver.kernel_module.version"})
        if (auto version = fact_string(report, key); version && out.driver_version.empty())
            out.driver_version = *version;
    return out;
}

std::string refused_code_remedy() {
    return "the library runs; NVIDIA supports its libraries on an older driver of the same CUDA major, "
           "so that code is most likely dispatched on other GPUs. A driver for the CUDA release named "
           "above removes the doubt";
}

namespace {

// Whether every image of a file is built for architecture-specific targets
// (sm_90a, sm_100f and their PTX): such a file cannot run anywhere else by
// design, so a package that ships it (vLLM's FlashAttention-3 and FlashMLA
// for Hopper, its sm_100f kernels for Blackwell) loads it on those GPUs alone.
bool architecture_specific_only(const arch::FatbinScan& scan) {
    bool any = false;
    for (const arch::FatbinImage& image : scan.images) {
        if (image.kind != arch::ImageKind::sass && image.kind != arch::ImageKind::ptx) continue;
        if (image.variant == arch::Variant::plain) return false;
        any = true;
    }
    return any;
}

}  // namespace

FileVerdicts judge_files(const std::vector<std::string>& files, const std::vector<GpuInfo>& gpus,
                         const std::string& driver_version) {
    FileVerdicts out;
    auto driver = arch::parse_driver_version(driver_version);
    // Per GPU: whether any file runs on it, and the first architecture-specific
    // file set aside for it (a failure after all where nothing else runs).
    std::vector<bool> runs(gpus.size(), false);
    std::vector<std::string> set_aside(gpus.size());
    for (const std::string& path : files) {
        auto file = arch::MappedFile::open(path);
        if (!file) continue;
        auto listing = arch::read_binary(file->bytes());
        if (file->changed_while_read()) continue;  // zeros were read, not the file
        // Host-only (cuDNN's dispatcher, a plugin), or link stubs without a kernel.
        if (!listing || listing->scan.images.empty() || arch::link_stubs_only(*listing)) continue;
        ++out.files_with_code;
        std::string name = std::filesystem::path(path).filename().string();
        bool failing = false;
        bool specific_only = architecture_specific_only(listing->scan);
        for (size_t g = 0; g < gpus.size(); ++g) {
            const GpuInfo& gpu = gpus[g];
            // Each registered fat binary on its own: the worst decides (arch::decide_binary).
            auto decision = arch::decide_binary(*listing, {gpu.sm, driver});
            for (const auto& jit : decision.jit_fat_binaries)
                if (auto bytes = arch::container_size(file->bytes(), jit.offset))
                    out.jit_fat_binaries.push_back({gpu.sm, path, jit.offset, *bytes, jit.image});
            // A target without a name is a compute capability someone gave, not a GPU here.
            std::string gpu_text = gpu.name.empty() ? "CC " + arch::cc_text(gpu.sm)
                                                    : "GPU " + std::to_string(gpu.index) + " (" + gpu.name +
                                                          ", CC " + arch::cc_text(gpu.sm) + ")";
            Status status = decision.verdict == arch::Verdict::native ? Status::pass
                            : decision.verdict == arch::Verdict::jit  ? Status::warn
                                                                      : Status::fail;
            // A few modules left to the JIT while most run native (cuSPARSELt
            // 0.7 on CC 9.0: 1 of 112) cost one short compile when first used,
            // cached afterwards: the library runs as built. The counts stay in
            // the evidence; a library mostly left to the JIT still warns.
            bool mostly_native = decision.verdict == arch::Verdict::jit && decision.native > decision.jit;
            if (mostly_native) status = Status::pass;
            // A few fat binaries only a newer driver runs, in a library that
            // otherwise runs native (cuSOLVER 12.2 of CUDA 13.2 on CC 10.0
            // with driver 580: 1 of 234, PTX ISA 9.2): the library runs, a
            // call into that code would fail. Said, not a failure.
            bool refused_few = decision.verdict != arch::Verdict::none && decision.driver_refused > 0;
            if (refused_few) status = Status::warn;
            std::string counts = decision.disagree()
                                     ? "; " + std::to_string(decision.registered) +
                                           " registered fat binaries: " + std::to_string(decision.native) +
                                           " native, " + std::to_string(decision.jit) + " JIT only, " +
                                           std::to_string(decision.none) + " without an image"
                                     : "";
            if (status != Status::fail) runs[g] = true;
            // Built only for other GPUs' architecture-specific targets: not
            // loaded here. Said, and a failure only where nothing else runs.
            if (status == Status::fail && specific_only) {
                out.evidence += (out.evidence.empty() ? "" : "\n") + gpu_text + ": " + name +
                                " -> not loaded (built only for other GPUs' architecture-specific targets: " +
                                decision.reason + ")";
                if (set_aside[g].empty()) set_aside[g] = gpu_text + ": " + name + ": " + decision.reason;
                continue;
            }
            std::string picked = decision.image.empty() ? std::string("no image") : decision.image;
            auto fat_binaries = [](size_t n) {
                return std::to_string(n) + (n == 1 ? " fat binary" : " fat binaries");
            };
            std::string verdict =
                mostly_native ? "native, except " + fat_binaries(decision.jit) +
                                    " JIT-compiled at first use (" + picked + ")"
                : refused_few
                    ? picked + " (" + std::string(arch::verdict_name(decision.verdict)) + "), except " +
                          fat_binaries(decision.driver_refused) + " this driver refuses"
                    : picked + " (" + std::string(arch::verdict_name(decision.verdict)) + ")";
            out.evidence +=
                (out.evidence.empty() ? "" : "\n") + gpu_text + ": " + name + " -> " + verdict + counts;
            failing = failing || status == Status::fail;
            if (severity(status) > severity(out.worst)) {
                out.worst = status;
                out.first_problem =
                    gpu_text + ": " + name + ": " +
                    (refused_few
                         ? std::to_string(decision.driver_refused) + " of " +
                               fat_binaries(decision.registered) +
                               " refused by this driver while the rest runs: " + decision.refused_reason
                         : decision.reason);
                out.worst_is_refusal = refused_few;
            }
        }
        out.files_failing += failing;
    }
    for (size_t g = 0; g < gpus.size(); ++g) {
        if (runs[g] || set_aside[g].empty()) continue;
        ++out.files_failing;
        if (out.worst != Status::fail) {
            out.worst = Status::fail;
            out.first_problem = set_aside[g] + "; no other file has code for this GPU";
            out.worst_is_refusal = false;
        }
    }
    return out;
}

std::string path_under(const std::string& path, const std::string& base) {
    if (base.empty()) return path;
    std::string relative = std::filesystem::path(path).lexically_relative(base).string();
    return relative.empty() || relative.starts_with("..") ? path : relative;
}

Json jit_fat_binaries_json(const std::vector<FileVerdicts::JitFatBinary>& fat_binaries,
                           const std::string& base) {
    Json out = Json::array();
    for (size_t i = 0; i < fat_binaries.size();) {
        const FileVerdicts::JitFatBinary& first = fat_binaries[i];
        std::string file = path_under(first.file, base);
        Json offsets = Json::array();
        for (;
             i < fat_binaries.size() && fat_binaries[i].sm == first.sm && fat_binaries[i].file == first.file;
             ++i)
            offsets.push_back({fat_binaries[i].offset, fat_binaries[i].bytes});
        out.push_back(
            {{"cc", arch::cc_text(first.sm)}, {"file", file}, {"fat_binaries", std::move(offsets)}});
    }
    return out;
}

}  // namespace strata
