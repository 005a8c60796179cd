#include "doctor/kernel_images.h"

#include <filesystem>
#include <tuple>

#include "diagnosis/image_verdicts.h"
#include "plugins/discovery.h"
#include "probes/probes.h"
#include "strata/arch/binary.h"
#include "strata/arch/mapped_file.h"
#include "strata/arch/tables.h"

namespace strata {

std::vector<std::string> own_device_code_files(const std::string& executable) {
    std::vector<std::string> files;
    std::error_code ec;
    auto kernels = (std::filesystem::path(executable).parent_path() / ".." / "lib" / "libstrata_kernels.so")
                       .lexically_normal();
    if (std::filesystem::exists(kernels, ec)) files.push_back(kernels.string());
    for (const auto& entry : std::filesystem::directory_iterator(builtin_plugin_directory(executable), ec))
        if (entry.path().extension() == ".so") files.push_back(entry.path().string());
    return files;
}

Check kernel_image_check(const std::vector<GpuInfo>& gpus, const std::vector<std::string>& files,
                         const std::string& driver_version) {
    FileVerdicts verdicts = judge_files(files, gpus, driver_version);
    const Status worst = verdicts.worst;
    if (verdicts.files_with_code == 0)
        return make_check("kernel.strata_images", Layer::kernel, Status::skip,
                          "strata was built without device code (no nvcc): nothing to load");
    std::string summary = worst == Status::pass
                              ? "every GPU loads native SASS from strata's " +
                                    std::to_string(verdicts.files_with_code) + " device-code file(s)"
                              : verdicts.first_problem;
    std::string remedy =
        worst == Status::pass ? ""
        : verdicts.worst_is_refusal
            ? "update the driver to one for the CUDA release named above, or rebuild strata with a toolkit "
              "no newer than the driver"
        : worst == Status::warn
            ? "rebuild strata with this GPU's architecture in STRATA_CUDA_ARCHITECTURES to avoid the JIT"
            : "rebuild strata with this GPU's architecture in STRATA_CUDA_ARCHITECTURES (or update "
              "the driver if the reason names one)";
    return make_check("kernel.strata_images", Layer::kernel, worst, summary, verdicts.evidence, remedy);
}

Check ptx_jit_check(const std::vector<std::string>& files, long long driver_cuda_version) {
    // The newest PTX ISA among strata's own images, and the CUDA release it needs.
    uint16_t isa_major = 0, isa_minor = 0;
    std::string where;
    for (const std::string& path : files) {
        auto file = arch::MappedFile::open(path);
        if (!file) continue;
        auto listing = arch::read_binary(file->bytes());
        if (file->changed_while_read()) continue;  // zeros were read, not the file
        if (!listing) continue;
        for (const arch::FatbinImage& image : listing->scan.images) {
            if (image.kind != arch::ImageKind::ptx) continue;
            if (std::tie(image.version_major, image.version_minor) > std::tie(isa_major, isa_minor)) {
                isa_major = image.version_major;
                isa_minor = image.version_minor;
                where = std::filesystem::path(path).filename().string() + " " + image.target_name();
            }
        }
    }
    std::string driver_text =
        std::to_string(driver_cuda_version / 1000) + "." + std::to_string((driver_cuda_version % 1000) / 10);
    if (isa_major == 0)
        return make_check(
            "kernel.ptx_jit", Layer::kernel, Status::warn,
            "strata's kernels carry no PTX: a GPU newer than the build's SASS cannot run them", "",
            "keep PTX for the newest architecture in STRATA_CUDA_ARCHITECTURES (\"120\", not \"120-real\")");
    std::string isa = std::to_string(isa_major) + "." + std::to_string(isa_minor);
    auto needs = arch::cuda_for_ptx_isa(isa_major, isa_minor);
    if (!needs)
        return make_check(
            "kernel.ptx_jit", Layer::kernel, Status::warn,
            "strata's PTX is ISA " + isa + ", which strata's tables do not map to a CUDA release", where);
    arch::CudaVersion driver{static_cast<uint32_t>(driver_cuda_version / 1000),
                             static_cast<uint32_t>((driver_cuda_version % 1000) / 10)};
    if (driver < *needs)
        return make_check("kernel.ptx_jit", Layer::kernel, Status::warn,
                          "this driver (CUDA " + driver_text + ") cannot JIT strata's PTX (ISA " + isa +
                              ", needs CUDA " + needs->text() +
                              "): only GPUs with native SASS in the build run "
                              "strata's kernels",
                          where, "update the driver to one for CUDA " + needs->text() + " or newer",
                          {"driver.cuda.version"});
    return make_check("kernel.ptx_jit", Layer::kernel, Status::pass,
                      "this driver (CUDA " + driver_text + ") can JIT strata's PTX (ISA " + isa +
                          ", needs CUDA " + needs->text() + ")",
                      where, "", {"driver.cuda.version"});
}

void check_own_kernel_images(const std::string& executable, Report& report) {
    if (const Fact* driver = report.find_fact("driver.cuda.version");
        driver && driver->value.is_number_integer() && driver->value.get<long long>() > 0)
        report.add_check(ptx_jit_check(own_device_code_files(executable), driver->value.get<long long>()));
    GpuDiscovery discovery = gpus_from_facts(report);
    if (discovery.gpus.empty()) discovery = discover_gpus();
    if (discovery.gpus.empty()) {
        report.add_check(make_check("kernel.strata_images", Layer::kernel, Status::skip,
                                    "no GPU to load kernels on: " + discovery.problem));
        return;
    }
    report.add_check(
        kernel_image_check(discovery.gpus, own_device_code_files(executable), discovery.driver_version));
}

}  // namespace strata
