// Host layer: OS, kernel, CPU, memory, and NVIDIA GPUs on the PCI bus (which
// are visible even when no driver is loaded).
#include <sys/utsname.h>

#include <algorithm>
#include <system_error>

#include "probes/probes.h"
#include "probes/text_util.h"

namespace strata {

namespace {

void probe_os(const ProbeContext& context, Report& report) {
    if (auto text = context.read("/etc/os-release")) {
        for (auto [field, key] : {std::pair{"PRETTY_NAME", "host.os.name"}, std::pair{"ID", "host.os.id"},
                                  std::pair{"VERSION_ID", "host.os.version_id"}}) {
            std::string value = key_value(*text, field, '=');
            if (!value.empty()) add_fact(report, Layer::host, key, value, "/etc/os-release");
        }
    }
    if (auto release = context.read("/proc/sys/kernel/osrelease"))
        add_fact(report, Layer::host, "host.kernel.release", std::string(trim(*release)),
                 "/proc/sys/kernel/osrelease");
    if (context.is_live()) {
        utsname names{};
        if (uname(&names) == 0) {
            add_fact(report, Layer::host, "host.arch", names.machine, "uname(2)");
            // The node a record came from, when many are read together.
            add_fact(report, Layer::host, "host.name", names.nodename, "uname(2)");
        }
    } else if (auto name = context.read("/etc/hostname", 256)) {
        std::string text(trim(*name));
        if (!text.empty()) add_fact(report, Layer::host, "host.name", text, "/etc/hostname");
    }
}

void probe_cpu_and_memory(const ProbeContext& context, Report& report) {
    if (auto cpuinfo = context.read("/proc/cpuinfo", 4 << 20)) {
        int count = 0;
        std::string model;
        for (std::string_view line : split_lines(*cpuinfo)) {
            size_t colon = line.find(':');
            if (colon == std::string_view::npos) continue;
            std::string_view key = trim(line.substr(0, colon));
            if (key == "processor") ++count;
            if (model.empty() && key == "model name") model = std::string(trim(line.substr(colon + 1)));
        }
        if (!model.empty()) add_fact(report, Layer::host, "host.cpu.model", model, "/proc/cpuinfo");
        if (count > 0) add_fact(report, Layer::host, "host.cpu.logical_cores", count, "/proc/cpuinfo");
    }
    if (auto meminfo = context.read("/proc/meminfo")) {
        std::string total = key_value(*meminfo, "MemTotal", ':');  // "24564212 kB"
        if (!total.empty()) {
            try {
                add_fact(report, Layer::host, "host.memory.total_bytes",
                         static_cast<int64_t>(std::stoll(total)) * 1024, "/proc/meminfo");
            } catch (const std::exception&) {
                // A malformed meminfo is not worth failing the host layer over.
            }
        }
    }
}

void probe_pci(const ProbeContext& context, Report& report) {
    std::vector<std::string> gpus;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(context.at("/sys/bus/pci/devices"), ec)) {
        auto vendor = read_file(entry.path() / "vendor", 64);
        auto device_class = read_file(entry.path() / "class", 64);
        if (!vendor || trim(*vendor) != "0x10de" || !device_class) continue;
        // 0x03xxxx display controllers (VGA 0x0300, 3D 0x0302); skips NVIDIA
        // audio functions and NVSwitch bridges.
        if (trim(*device_class).substr(0, 4) != "0x03") continue;
        auto device = read_file(entry.path() / "device", 64);
        gpus.push_back(entry.path().filename().string() +
                       " (10de:" + (device ? std::string(trim(*device)).substr(2) : "?") + ")");
    }
    std::sort(gpus.begin(), gpus.end());
    add_fact(report, Layer::host, "host.pci.nvidia_gpus", gpus, "/sys/bus/pci/devices");
    if (gpus.empty()) {
        report.add_check(
            make_check("host.pci.nvidia_gpu", Layer::host, Status::warn, "no NVIDIA GPU on the PCI bus",
                       "no device with vendor 0x10de and a display class under /sys/bus/pci/devices",
                       "run strata on a machine with an NVIDIA GPU; in a VM, check that the GPU is passed "
                       "through to the guest",
                       {"host.pci.nvidia_gpus"}));
    } else {
        report.add_check(make_check("host.pci.nvidia_gpu", Layer::host, Status::pass,
                                    std::to_string(gpus.size()) + " NVIDIA GPU(s) on the PCI bus",
                                    gpus.front() + (gpus.size() > 1 ? ", ..." : ""), "",
                                    {"host.pci.nvidia_gpus"}));
    }
}

}  // namespace

void probe_host(const ProbeContext& context, Report& report) {
    probe_os(context, report);
    probe_cpu_and_memory(context, report);
    probe_pci(context, report);
}

}  // namespace strata
