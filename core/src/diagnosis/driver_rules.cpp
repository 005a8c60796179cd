// What cuInit's answer means on this machine, and whether the three places a
// driver version shows (kernel module, libcuda's file name, NVML) agree.
#include <map>

#include "diagnosis/fact_access.h"
#include "diagnosis/rules.h"
#include "explain/status_codes.h"
#include "frameworks/python_metadata.h"
#include "probes/probes.h"
#include "probes/text_util.h"

namespace strata {

namespace {

struct InitDiagnosis {
    std::string summary;
    std::string remedy;
};

InitDiagnosis diagnose_init(long long code, const ProbeContext& context, const Report& report) {
    std::string libcuda = fact_string(report, "driver.libcuda.loaded_path").value_or("libcuda.so.1");
    bool container = fact_true(report, "container.detected");
    switch (code) {
        case 34:
            return {
                "libcuda.so.1 (" + libcuda + ") is the CUDA toolkit's stub: every driver call fails",
                "remove the directory holding the stub from LD_LIBRARY_PATH or ld.so.conf; install the real "
                "driver's libcuda"};
        case 100: {
            auto visible = context.env("CUDA_VISIBLE_DEVICES");
            if (visible)
                return {"the driver sees no GPU: CUDA_VISIBLE_DEVICES='" + *visible + "' may hide them all",
                        "unset CUDA_VISIBLE_DEVICES or list GPUs that exist (`nvidia-smi -L`)"};
            if (container)
                return {
                    "no GPU is exposed to this container (cuInit: no CUDA-capable device)",
                    "start the container with the GPUs: `docker run --gpus all` (or "
                    "NVIDIA_VISIBLE_DEVICES=all with the NVIDIA runtime, CDI `--device nvidia.com/gpu=all`, "
                    "or a nvidia.com/gpu resource in Kubernetes); a `docker build` step never gets GPUs"};
            return {
                "the driver is loaded but sees no CUDA-capable GPU",
                "check `nvidia-smi` and `lspci | grep -i nvidia`; a GPU that fell off the bus needs a reset "
                "or reboot"};
        }
        case 803:
            return {
                "the user-mode driver (" + libcuda + ") does not match the kernel module (error 803)",
                "reboot (or reload the nvidia kernel module) after a driver upgrade; if a cuda-compat "
                "libcuda is on LD_LIBRARY_PATH or in ld.so.conf, remove it so the host's libcuda is used"};
        case 804:
            return {"a forward-compatibility libcuda (" + libcuda +
                        ") is in use on a GPU that does not support forward compatibility (error 804)",
                    "forward compatibility works only on data-centre GPUs: remove the compat directory "
                    "(e.g. /usr/local/cuda/compat) from LD_LIBRARY_PATH / ld.so.conf and upgrade the driver "
                    "instead"};
        case 802:
            return {
                "the system is not ready (error 802): on NVSwitch systems the fabric manager is not running",
                "start nvidia-fabricmanager with the same version as the driver (`systemctl status "
                "nvidia-fabricmanager`)"};
        case 3:
            return {"cuInit failed with an initialisation error (3)",
                    "check `dmesg | grep -i -E 'nvrm|xid'`; the nvidia-uvm module must be loaded "
                    "(`modprobe nvidia-uvm`); reboot if the driver was updated"};
        default: return {"cuInit failed", "see the error; `strata explain` takes its text"};
    }
}

}  // namespace

void rule_cuda_init(const ProbeContext& context, Report& report) {
    auto code = fact_int(report, "driver.cuda.init_result");
    if (!code) return;
    std::string error = fact_string(report, "driver.cuda.init_error").value_or(std::to_string(*code));
    if (*code == 0) {
        report.add_check(make_check("driver.cuda_init", Layer::driver, Status::pass, "cuInit succeeded",
                                    error, "", {"driver.cuda.init_result"}));
        // A cuda-compat libcuda that initialises: forward compatibility works on this GPU.
        if (fact_true(report, "driver.libcuda.forward_compat"))
            report.add_check(make_check(
                "driver.forward_compat", Layer::driver, Status::pass,
                "a forward-compatibility libcuda (" +
                    fact_string(report, "driver.libcuda.loaded_path").value_or("libcuda.so.1") +
                    ") is in use, and this GPU supports it",
                "kernel module " + fact_string(report, "driver.kernel_module.version").value_or("unknown") +
                    "; the compat libcuda supports CUDA " +
                    cuda_version_text(fact_int(report, "driver.cuda.version").value_or(0)),
                "", {"driver.libcuda.forward_compat", "driver.libcuda.loaded_path"}));
        return;
    }
    InitDiagnosis diagnosis = diagnose_init(*code, context, report);
    // No GPU exposed to a container is the container layer's fault.
    Layer layer =
        *code == 100 && fact_true(report, "container.detected") && !context.env("CUDA_VISIBLE_DEVICES")
            ? Layer::container
            : Layer::driver;
    report.add_check(make_check("driver.cuda_init", layer, Status::fail, diagnosis.summary,
                                "cuInit: " + error, diagnosis.remedy,
                                {"driver.cuda.init_result", "driver.cuda.init_error"}));
}

std::string version_from_library_path(std::string_view path, std::string_view soname_stem) {
    size_t slash = path.rfind('/');
    std::string_view name = path.substr(slash == std::string_view::npos ? 0 : slash + 1);
    std::string prefix = std::string(soname_stem) + ".";
    if (name.rfind(prefix, 0) != 0) return {};
    std::string_view version = name.substr(prefix.size());
    // "1" (the soname itself) is not a driver version; "580.65.06" is.
    if (version.find('.') == std::string_view::npos) return {};
    return std::string(version);
}

void rule_driver_versions_agree(Report& report) {
    std::map<std::string, std::string> versions;  // where -> version
    if (auto v = fact_string(report, "driver.kernel_module.version")) versions["kernel module"] = *v;
    if (auto v = fact_string(report, "driver.nvml.driver_version")) versions["NVML"] = *v;
    if (auto path = fact_string(report, "driver.libcuda.loaded_path")) {
        std::string v = version_from_library_path(*path, "libcuda.so");
        // A forward-compatibility libcuda is newer than the kernel module by
        // design; when cuInit accepts it, it is not a mismatch (a real one
        // fails cuInit with 803, compat copy or not). driver.forward_compat
        // reports it.
        bool newer_than_rest = !v.empty() && !versions.empty();
        for (const auto& [where, version] : versions) newer_than_rest &= compare_versions(v, version) > 0;
        bool cuda_works = fact_int(report, "driver.cuda.init_result") == std::optional<int64_t>(0);
        if (!v.empty() && !(newer_than_rest && cuda_works)) versions["libcuda"] = v;
    }
    auto nvml_init = fact_int(report, "driver.nvml.init_result");
    bool nvml_mismatch = nvml_init && *nvml_init == 18;  // NVML_ERROR_LIB_RM_VERSION_MISMATCH
    std::string listing;
    for (const auto& [where, version] : versions)
        listing += (listing.empty() ? "" : ", ") + where + " " + version;
    bool disagree = false;
    for (const auto& [where, version] : versions) disagree |= version != versions.begin()->second;
    if (!disagree && !nvml_mismatch) {
        if (versions.size() >= 2)
            report.add_check(make_check("driver.version_agreement", Layer::driver, Status::pass,
                                        "driver versions agree: " + listing));
        return;
    }
    report.add_check(make_check(
        "driver.version_agreement", Layer::driver, Status::fail,
        "Driver/library version mismatch: " +
            (listing.empty() ? std::string("NVML refuses to start") : listing),
        nvml_mismatch ? "nvmlInit: " + fact_string(report, "driver.nvml.init_error").value_or("error 18")
                      : "",
        "the user-mode libraries were upgraded under a running kernel module: reboot (or unload and reload "
        "the "
        "nvidia modules); hold the driver packages (`apt-mark hold`) on nodes that must not change under "
        "load",
        {"driver.kernel_module.version", "driver.libcuda.loaded_path", "driver.nvml.driver_version"}));
}

namespace {

// What to do when nvmlInit fails with each code (18, the version mismatch,
// is judged by driver.version_agreement).
std::string nvml_init_remedy(int64_t code) {
    switch (code) {
        case 4:  // NO_PERMISSION
            return "the user cannot open /dev/nvidiactl and /dev/nvidia*: check their permissions (the "
                   "NVreg_DeviceFileMode module option), or in a container request GPUs (--gpus, CDI, the "
                   "device plugin)";
        case 9:  // DRIVER_NOT_LOADED
            return "load the kernel module (`modprobe nvidia`) and read `dmesg | grep -i nvrm` for why it "
                   "did not load (Secure Boot, a module built for another kernel)";
        case 12:  // LIBRARY_NOT_FOUND
            return "reinstall the driver's user-mode libraries; in a container, the NVIDIA Container "
                   "Toolkit must mount them";
        case 15:  // GPU_IS_LOST
        case 16:  // RESET_REQUIRED
            return "a GPU fell off the bus or needs a reset: read `dmesg` for Xid 79/119, reset the GPU "
                   "(`nvidia-smi -r`) or reboot, and drain the node if it recurs";
        case 14:  // CORRUPTED_INFOROM
            return "the GPU's InfoROM is corrupt: contact the vendor (RMA); drain the node";
        default:
            return "read `dmesg | grep -i -E 'nvrm|xid'`; reboot if the driver was updated; `strata explain` "
                   "takes the error's name";
    }
}

}  // namespace

void rule_nvml_init(Report& report) {
    auto code = fact_int(report, "driver.nvml.init_result");
    if (!code || *code == 0 || *code == 18) return;
    std::string name = "NVML error " + std::to_string(*code), description;
    for (const StatusCode& known : nvml_return_codes())
        if (known.number == *code) {
            name = std::string(known.name);
            description = std::string(known.description);
        }
    // With CUDA working the GPUs still compute; what NVML reports (clocks,
    // ECC, MIG, health) is what is missing.
    bool cuda_works = fact_int(report, "driver.cuda.init_result") == std::optional<int64_t>(0);
    report.add_check(make_check(
        "driver.nvml_init", Layer::driver, cuda_works ? Status::warn : Status::fail,
        "NVML cannot start: " + name + " (" + std::to_string(*code) + ")" +
            (description.empty() ? "" : ": " + description) +
            (cuda_works ? "; CUDA works, but clocks, ECC, MIG and GPU health cannot be read" : ""),
        "nvmlInit_v2: " + fact_string(report, "driver.nvml.init_error").value_or(std::to_string(*code)),
        nvml_init_remedy(*code), {"driver.nvml.init_result", "driver.nvml.init_error"}));
}

}  // namespace strata
