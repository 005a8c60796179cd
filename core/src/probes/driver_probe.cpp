// Driver layer, as far as it can be seen without loading libcuda: the kernel
// module (/proc/driver/nvidia/version) and the user-mode driver library
// libcuda.so.1 on the loader's search path, including the toolkit's stub, and
// whether the unversioned libcuda.so some programs ask for is there too.
#include <filesystem>

#include "probes/kernel_module_version.h"
#include "probes/library_search.h"
#include "probes/module_signing.h"
#include "probes/probes.h"
#include "probes/text_util.h"

namespace strata {

namespace {

bool in_container(const Report& report) {
    const Fact* fact = report.find_fact("container.detected");
    return fact && fact->value == true;
}

bool nvidia_gpu_on_pci(const Report& report) {
    const Fact* fact = report.find_fact("host.pci.nvidia_gpus");
    return fact && fact->value.is_array() && !fact->value.empty();
}

// The toolkit ships a link-time stub libcuda under .../lib64/stubs; loading it
// makes every driver call return CUDA_ERROR_STUB_LIBRARY (34).
bool is_stub_path(std::string_view path) {
    return contains(path, "/stubs/");
}

std::string missing_driver_remedy(const Report& report) {
    if (!nvidia_gpu_on_pci(report))
        return "this machine has no NVIDIA GPU on its PCI bus: run strata on a GPU node";
    if (in_container(report))
        return "the kernel module lives on the host: install the NVIDIA driver there, then start the "
               "container with the NVIDIA runtime (docker run --gpus all ...)";
    return "install the NVIDIA driver (e.g. `apt install nvidia-driver` or `nvidia-open`), then "
           "`modprobe nvidia`; if it is installed, `dmesg | grep -i nvrm` says why it did not load";
}

// The device node the driver's user-mode side opens: /dev/nvidiactl, or
// WSL's /dev/dxg, where the driver lives in Windows.
std::optional<std::string> driver_device_node(const ProbeContext& context) {
    for (const char* node : {"/dev/nvidiactl", "/dev/dxg"})
        if (context.exists(node)) return node;
    return std::nullopt;
}

void probe_kernel_module(const ProbeContext& context, Report& report) {
    constexpr std::string_view path = "/proc/driver/nvidia/version";
    auto text = context.read(path);
    auto parsed = text ? parse_kernel_module_version(*text) : std::nullopt;
    // Sandboxed runtimes (gVisor's nvproxy, some restricted containers) and
    // WSL give a program the driver's device node but no /proc/driver/nvidia:
    // the module's version is unknown, not the module absent. Whether the
    // driver works is cuInit's to say (driver.cuda_init).
    if (!text) {
        if (auto node = driver_device_node(context)) {
            report.add_check(make_check(
                "driver.kernel_module", Layer::driver, Status::warn,
                "NVIDIA kernel module version unknown: " + std::string(path) + " is hidden here, but " +
                    *node + " is present",
                std::string(path) + " does not exist; " + *node +
                    " does (a sandboxed runtime such as gVisor, or WSL, hides /proc/driver/nvidia)",
                "run `strata doctor` on the host (or `nvidia-smi` here) for the module's version; "
                "driver.cuda_init says whether the driver works"));
            return;
        }
    }
    if (!parsed) {
        std::string remedy = missing_driver_remedy(report);
        std::vector<std::string> facts;
        // On a host with a GPU and no module at all, a kernel that loads only
        // signed modules is the likeliest reason an installed driver did not load.
        auto enforced = text || in_container(report) || !nvidia_gpu_on_pci(report)
                            ? std::nullopt
                            : module_signature_enforcement(context);
        if (enforced) {
            add_fact(report, Layer::driver, "driver.module_signatures_enforced", *enforced,
                     "/sys (EFI SecureBoot variable, kernel lockdown, module.sig_enforce)");
            facts.push_back("driver.module_signatures_enforced");
            remedy =
                "this kernel loads only signed modules (" + *enforced +
                "): a driver built by DKMS is refused unless its key is enrolled (`mokutil --import` the "
                "DKMS key, then reboot and confirm it) or the distribution's signed driver packages are "
                "used; `dmesg | grep -i -E 'nvidia|key|lockdown'` shows the refusal. " +
                remedy;
        }
        report.add_check(make_check(
            "driver.kernel_module", Layer::driver, Status::fail,
            text ? "NVIDIA kernel module version unreadable" : "no NVIDIA kernel module loaded",
            text ? std::string(path) + " has no NVRM version line" : std::string(path) + " does not exist",
            std::move(remedy), std::move(facts)));
        return;
    }
    add_fact(report, Layer::driver, "driver.kernel_module.version", parsed->version, std::string(path));
    add_fact(report, Layer::driver, "driver.kernel_module.flavor",
             parsed->open_module ? "open" : "proprietary", std::string(path));
    if (!parsed->gcc_version.empty())
        add_fact(report, Layer::driver, "driver.kernel_module.gcc", parsed->gcc_version, std::string(path));
    report.add_check(make_check("driver.kernel_module", Layer::driver, Status::pass,
                                "NVIDIA " + std::string(parsed->open_module ? "open" : "proprietary") +
                                    " kernel module " + parsed->version + " loaded",
                                std::string(path), "",
                                {"driver.kernel_module.version", "driver.kernel_module.flavor"}));
}

// The driver's library is loaded by its soname, libcuda.so.1, but some
// programs ask for the unversioned name: Triton (and torch.compile through
// it) links its launcher with -lcuda at run time, and cudarc, older
// cuda-python and bitsandbytes dlopen("libcuda.so"). Driver-only installs
// (the container toolkit's mounts, WSL's /usr/lib/wsl/lib cache, some distro
// packages) provide libcuda.so.1 alone, and those programs then report the
// driver as missing. The toolkit's stub does not count: it answers every call
// with error 34.
void probe_unversioned_libcuda(const ProbeContext& context, Report& report, const LibraryLocation& driver) {
    for (const LibraryLocation& copy : context.library_search().find_all("libcuda.so")) {
        if (is_stub_path(copy.path) || is_stub_path(copy.real_path)) continue;
        add_fact(report, Layer::driver, "driver.libcuda.unversioned_path", copy.real_path, copy.via);
        report.add_check(make_check("driver.libcuda_unversioned", Layer::driver, Status::pass,
                                    "libcuda.so found at " + copy.path, "found via " + copy.via, "",
                                    {"driver.libcuda.unversioned_path"}));
        return;
    }
    std::string directory = std::filesystem::path(driver.path).parent_path().string();
    // WSL ships libcuda.so as a file in /usr/lib/wsl/lib (read-only), where
    // the loader's cache may list only libcuda.so.1: the name is there, off
    // the search path.
    if (context.exists(directory + "/libcuda.so")) {
        report.add_check(make_check(
            "driver.libcuda_unversioned", Layer::driver, Status::warn,
            "libcuda.so is in " + directory +
                " but the loader's search does not reach it: programs that "
                "dlopen \"libcuda.so\" (cudarc, older cuda-python) or link -lcuda at run time (Triton) will "
                "report the driver missing",
            "libcuda.so.1 is found via " + driver.via + "; libcuda.so is not on the loader's search path",
            "export LD_LIBRARY_PATH=" + directory +
                ":$LD_LIBRARY_PATH (for Triton alone, TRITON_LIBCUDA_PATH=" + directory + ")",
            {"driver.libcuda.path"}));
        return;
    }
    report.add_check(make_check(
        "driver.libcuda_unversioned", Layer::driver, Status::warn,
        "no unversioned libcuda.so beside " + driver.path +
            ": Triton and torch.compile (which link -lcuda at run time), cudarc and other programs that "
            "dlopen \"libcuda.so\" will report the driver missing",
        "libcuda.so.1 is found via " + driver.via + "; libcuda.so is not on the loader's search path",
        "ln -s libcuda.so.1 " + directory + "/libcuda.so && ldconfig" +
            (in_container(report) ? " (in the image or its entrypoint: the container runtime mounts only "
                                    "libcuda.so.1)"
                                  : "") +
            "; for Triton alone, TRITON_LIBCUDA_PATH=" + directory + " is enough",
        {"driver.libcuda.path"}));
}

void probe_libcuda(const ProbeContext& context, Report& report) {
    const LibrarySearch& search = context.library_search();
    auto copies = search.find_all("libcuda.so.1");
    Json paths = Json::array();
    for (const LibraryLocation& copy : copies) paths.push_back(copy.real_path);
    add_fact(report, Layer::driver, "driver.libcuda.copies", paths, "loader search path");
    if (copies.empty()) {
        report.add_check(make_check(
            "driver.libcuda", Layer::driver, Status::fail, "libcuda.so.1 not found",
            "searched " + search.describe_order(),
            !nvidia_gpu_on_pci(report) ? "libcuda.so.1 is part of the NVIDIA driver, which needs an NVIDIA "
                                         "GPU: run strata on a GPU node"
            : in_container(report)
                ? "start the container with NVIDIA_DRIVER_CAPABILITIES including compute so the runtime "
                  "mounts libcuda.so.1 from the host"
                : "install the NVIDIA driver's user-mode libraries (Debian: libcuda1; Ubuntu: "
                  "libnvidia-compute-<branch>) matching the kernel module",
            {"driver.libcuda.copies"}));
        return;
    }
    const LibraryLocation& chosen = copies.front();
    add_fact(report, Layer::driver, "driver.libcuda.path", chosen.real_path, chosen.via);
    if (is_stub_path(chosen.path) || is_stub_path(chosen.real_path)) {
        report.add_check(make_check(
            "driver.libcuda", Layer::driver, Status::fail,
            "the loader picks the CUDA toolkit's stub libcuda (" + chosen.path +
                "): every driver call will fail with error 34",
            "found via " + chosen.via,
            chosen.via.rfind("LD_LIBRARY_PATH", 0) == 0
                ? "remove " + std::filesystem::path(chosen.path).parent_path().string() + " (" + chosen.via +
                      ") from LD_LIBRARY_PATH; the stub is for linking only"
                : "remove the stubs directory from ld.so.conf and run ldconfig; the stub is for linking only",
            {"driver.libcuda.path"}));
        return;
    }
    report.add_check(make_check("driver.libcuda", Layer::driver, Status::pass,
                                "libcuda.so.1 found at " + chosen.real_path, "found via " + chosen.via, "",
                                {"driver.libcuda.path"}));
    probe_unversioned_libcuda(context, report, chosen);
}

// A stubs directory on LD_LIBRARY_PATH is harmful even when it only holds
// libcuda.so (not .so.1): programs that dlopen("libcuda.so") get the stub.
void probe_stub_on_path(const ProbeContext& context, Report& report) {
    const LibrarySearch& search = context.library_search();
    std::vector<std::string> stubs;
    for (size_t i = 0; i < search.ld_library_path().size(); ++i) {
        const std::string& directory = search.ld_library_path()[i];
        for (const char* name : {"libcuda.so.1", "libcuda.so"}) {
            std::string file = directory + "/" + name;
            if (context.exists(file) && is_stub_path(file)) {
                stubs.push_back(file + " (LD_LIBRARY_PATH entry " + std::to_string(i + 1) + ")");
                break;
            }
        }
    }
    if (stubs.empty()) return;
    add_fact(report, Layer::driver, "driver.search_path.stub_libcuda", stubs, "LD_LIBRARY_PATH");
    report.add_check(make_check("driver.search_path.stub_libcuda", Layer::driver, Status::fail,
                                "LD_LIBRARY_PATH holds the CUDA toolkit's stub libcuda: " + stubs.front(),
                                "a stub answers every driver call with CUDA_ERROR_STUB_LIBRARY (34)",
                                "remove the stubs directory from LD_LIBRARY_PATH; it is only for linking",
                                {"driver.search_path.stub_libcuda"}));
}

}  // namespace

void probe_driver(const ProbeContext& context, Report& report) {
    probe_kernel_module(context, report);
    probe_libcuda(context, report);
    probe_stub_on_path(context, report);
}

}  // namespace strata
