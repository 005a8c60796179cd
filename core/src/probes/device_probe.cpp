// Device layer, as far as the core sees it: the /dev/nvidia* nodes the
// driver creates, the unified-memory node CUDA cannot start without, and
// CUDA_VISIBLE_DEVICES hiding GPUs from CUDA.
#include <fcntl.h>
#include <unistd.h>

#include <regex>
#include <system_error>

#include "probes/probes.h"
#include "probes/text_util.h"

namespace strata {

namespace {

void probe_cuda_visible_devices(const ProbeContext& context, Report& report) {
    auto value = context.env("CUDA_VISIBLE_DEVICES");
    if (!value) return;
    std::string_view trimmed = trim(*value);
    bool hides_all = trimmed.empty() || trimmed == "-1" || trimmed == "NoDevFiles";
    report.add_check(make_check(
        "device.cuda_visible_devices", Layer::device, hides_all ? Status::warn : Status::pass,
        hides_all ? "CUDA_VISIBLE_DEVICES='" + *value + "' hides every GPU from CUDA"
                  : "CUDA_VISIBLE_DEVICES=" + *value + " limits which GPUs CUDA sees",
        "value '" + *value + "'", hides_all ? "unset CUDA_VISIBLE_DEVICES or list the GPUs to use" : "",
        {"env.CUDA_VISIBLE_DEVICES"}));
}

// cuInit needs /dev/nvidia-uvm (the nvidia_uvm module's node); without it
// every CUDA program fails with CUDA_ERROR_UNKNOWN (999) and nothing names
// the node. On a host, libcuda creates it on first use through the setuid
// nvidia-modprobe, so it may be absent until then; without nvidia-modprobe
// and with the module not loaded, nothing will. A container cannot create it.
void probe_uvm_node(const ProbeContext& context, Report& report, const std::vector<std::string>& nodes) {
    if (std::find(nodes.begin(), nodes.end(), "/dev/nvidia-uvm") != nodes.end()) {
        report.add_check(make_check("device.uvm", Layer::device, Status::pass, "/dev/nvidia-uvm present", "",
                                    "", {"device.nodes"}));
        return;
    }
    const Fact* in_container = report.find_fact("container.detected");
    bool container = in_container && in_container->value == true;
    bool module_loaded = context.exists("/sys/module/nvidia_uvm");
    std::string helper;
    for (const char* path : {"/usr/bin/nvidia-modprobe", "/usr/sbin/nvidia-modprobe", "/bin/nvidia-modprobe"})
        if (context.exists(path)) helper = path;
    std::string evidence = std::string("no /dev/nvidia-uvm; nvidia_uvm module ") +
                           (module_loaded ? "loaded" : "not loaded") + " (/sys/module/nvidia_uvm); " +
                           (helper.empty() ? "no nvidia-modprobe" : helper + " present");
    if (!container && !helper.empty()) {
        report.add_check(
            make_check("device.uvm", Layer::device, Status::pass,
                       "/dev/nvidia-uvm is not created yet; " + helper + " creates it on the first CUDA call",
                       evidence, "", {"device.nodes"}));
        return;
    }
    report.add_check(make_check(
        "device.uvm", Layer::device, Status::fail,
        "/dev/nvidia-uvm is missing: CUDA cannot initialise (cuInit returns CUDA_ERROR_UNKNOWN, 999)",
        evidence,
        container
            ? "on the host, run `nvidia-modprobe -u -c=0` (it loads nvidia_uvm and creates the node), "
              "then restart the container"
            : "run `nvidia-modprobe -u -c=0` as root (or `modprobe nvidia-uvm` and create the node), and "
              "install nvidia-modprobe so CUDA creates it after each boot",
        {"device.nodes"}));
}

void probe_device_nodes(const ProbeContext& context, Report& report) {
    if (auto gate = report.gate_for(Layer::device)) {
        report.add_check(report.gated_check("device.nodes", Layer::device, "device node check", *gate));
        return;
    }
    static const std::regex gpu_node("nvidia[0-9]+");
    std::vector<std::string> nodes;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(context.at("/dev"), ec)) {
        std::string name = entry.path().filename().string();
        if (name.rfind("nvidia", 0) == 0) nodes.push_back("/dev/" + name);
    }
    std::sort(nodes.begin(), nodes.end());
    add_fact(report, Layer::device, "device.nodes", nodes, "/dev");
    bool control = std::find(nodes.begin(), nodes.end(), "/dev/nvidiactl") != nodes.end();
    size_t gpus = std::count_if(nodes.begin(), nodes.end(), [](const std::string& node) {
        return std::regex_match(node.substr(5), gpu_node);
    });
    if (!control || gpus == 0) {
        report.add_check(make_check(
            "device.nodes", Layer::device, Status::fail,
            !control ? "/dev/nvidiactl is missing" : "no /dev/nvidiaN GPU device node",
            "found: " + (nodes.empty() ? std::string("none") : std::to_string(nodes.size()) + " nodes"),
            "in a container, start it with --gpus all; on a host, `nvidia-modprobe` or loading the "
            "driver creates the nodes",
            {"device.nodes"}));
        return;
    }
    // A node that exists but cannot be opened is the container-cgroup failure
    // behind "unknown error" (999) after a systemd daemon-reload.
    if (context.is_live()) {
        for (const std::string& node : nodes) {
            if (node.find("nvidia-caps") != std::string::npos) continue;
            int fd = ::open(node.c_str(), O_RDWR | O_CLOEXEC);
            if (fd >= 0) {
                ::close(fd);
                continue;
            }
            if (errno == EPERM || errno == EACCES) {
                report.add_check(make_check(
                    "device.nodes", Layer::device, Status::fail, node + " exists but cannot be opened",
                    std::string("open: ") + std::strerror(errno),
                    "in a container the device cgroup lost the GPU (often after `systemctl daemon-reload`): "
                    "restart the container; on a host, check the node's permissions",
                    {"device.nodes"}));
                return;
            }
        }
    }
    report.add_check(make_check("device.nodes", Layer::device, Status::pass,
                                std::to_string(gpus) + " GPU device node(s) and /dev/nvidiactl present", "",
                                "", {"device.nodes"}));
    probe_uvm_node(context, report, nodes);
}

}  // namespace

void probe_devices(const ProbeContext& context, Report& report) {
    probe_cuda_visible_devices(context, report);
    probe_device_nodes(context, report);
}

}  // namespace strata
