// Container layer: are we in one, which, and did the NVIDIA container runtime
// get asked for GPUs and for the compute capability?
#include <sys/statvfs.h>

#include "probes/probes.h"
#include "probes/shared_memory.h"
#include "probes/text_util.h"

namespace strata {

namespace {

struct Detection {
    std::string runtime;   // docker, podman, kubernetes, containerd, lxc, or the container= value
    std::string evidence;  // what told us
};

std::optional<Detection> detect(const ProbeContext& context) {
    if (auto value = context.env("container"); value && !value->empty())
        return Detection{*value, "environment variable container=" + *value};
    if (context.exists("/run/.containerenv")) return Detection{"podman", "/run/.containerenv exists"};
    if (context.exists("/.dockerenv")) return Detection{"docker", "/.dockerenv exists"};
    if (context.env("KUBERNETES_SERVICE_HOST"))
        return Detection{"kubernetes", "KUBERNETES_SERVICE_HOST is set"};
    if (auto cgroup = context.read("/proc/1/cgroup")) {
        for (auto [needle, runtime] : {std::pair{"kubepods", "kubernetes"}, std::pair{"docker", "docker"},
                                       std::pair{"containerd", "containerd"}, std::pair{"lxc", "lxc"},
                                       std::pair{"libpod", "podman"}}) {
            if (contains(*cgroup, needle))
                return Detection{runtime, std::string("/proc/1/cgroup mentions ") + needle};
        }
    }
    return std::nullopt;
}

bool has_capability(std::string_view list, std::string_view capability) {
    size_t pos = 0;
    while (pos <= list.size()) {
        size_t end = list.find(',', pos);
        if (end == std::string_view::npos) end = list.size();
        std::string_view item = trim(list.substr(pos, end - pos));
        if (item == capability || item == "all") return true;
        pos = end + 1;
    }
    return false;
}

// NVIDIA's own containers are documented with --shm-size=1g; below that,
// NCCL's shared-memory segments (several MB per peer and channel) and
// DataLoader workers fail with "No space left on device" or a bus error.
constexpr uint64_t kSharedMemoryAdvised = uint64_t{1} << 30;

std::string mebibytes(uint64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

void check_shared_memory(const ProbeContext& context, Report& report) {
    const std::string remedy =
        "start the container with --ipc=host or --shm-size=1g (Docker, Podman); in Kubernetes mount an "
        "emptyDir with medium: Memory at /dev/shm";
    auto mounts = context.read("/proc/mounts");
    if (!mounts) return;  // no /proc: nothing to say either way
    SharedMemoryMount mount = find_tmpfs_mount(*mounts, "/dev/shm");
    if (!mount.mounted) {
        report.add_check(make_check("container.shared_memory", Layer::container, Status::warn,
                                    "no /dev/shm is mounted: NCCL's shared-memory transport and DataLoader "
                                    "workers cannot run",
                                    "/proc/mounts has no /dev/shm entry", remedy));
        return;
    }
    std::optional<uint64_t> size = mount.size_bytes;
    std::string source = "/proc/mounts (size= of /dev/shm)";
    struct statvfs fs {};
    if (!size && context.is_live() && statvfs("/dev/shm", &fs) == 0) {
        size = uint64_t{fs.f_blocks} * fs.f_frsize;
        source = "statvfs(/dev/shm)";
    }
    if (!size) return;  // a percentage of RAM, read from a fixture: unknown
    add_fact(report, Layer::container, "container.shared_memory_bytes", *size, source);
    bool enough = *size >= kSharedMemoryAdvised;
    report.add_check(make_check(
        "container.shared_memory", Layer::container, enough ? Status::pass : Status::warn,
        enough ? "/dev/shm holds " + mebibytes(*size)
               : "/dev/shm holds only " + mebibytes(*size) +
                     ": too small for NCCL's shared-memory transport between GPUs and for PyTorch DataLoader "
                     "workers",
        source, enough ? "" : remedy, {"container.shared_memory_bytes"}));
}

}  // namespace

void probe_container(const ProbeContext& context, Report& report) {
    for (const char* name : {"NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA",
                             "NVIDIA_DISABLE_REQUIRE", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH"}) {
        if (auto value = context.env(name))
            add_fact(report, Layer::container, std::string("env.") + name, *value, "environment");
    }
    auto detection = detect(context);
    add_fact(report, Layer::container, "container.detected", detection.has_value(), "container probe");
    if (!detection) {
        report.add_check(make_check("container.detected", Layer::container, Status::pass,
                                    "not running in a container",
                                    "no container= variable, /.dockerenv, /run/.containerenv, or "
                                    "container cgroup",
                                    "", {"container.detected"}));
        return;
    }
    add_fact(report, Layer::container, "container.runtime", detection->runtime, detection->evidence);
    report.add_check(make_check("container.detected", Layer::container, Status::pass,
                                "running in a " + detection->runtime + " container", detection->evidence, "",
                                {"container.detected", "container.runtime"}));
    check_shared_memory(context, report);

    auto visible = context.env("NVIDIA_VISIBLE_DEVICES");
    if (!visible) {
        report.add_check(make_check(
            "container.nvidia_visible_devices", Layer::container, Status::warn,
            "NVIDIA_VISIBLE_DEVICES is not set: the NVIDIA container runtime was not asked for GPUs",
            "the variable is absent from the container's environment",
            "start the container with --gpus all (Docker), --device nvidia.com/gpu=all (CDI/Podman) or "
            "a nvidia.com/gpu resource limit (Kubernetes)"));
    } else if (*visible == "void" || *visible == "none" || trim(*visible).empty()) {
        report.add_check(
            make_check("container.nvidia_visible_devices", Layer::container, Status::warn,
                       "NVIDIA_VISIBLE_DEVICES=" + *visible + " exposes no GPU to this container",
                       "value '" + *visible + "'", "set NVIDIA_VISIBLE_DEVICES=all or start with --gpus all",
                       {"env.NVIDIA_VISIBLE_DEVICES"}));
    } else {
        report.add_check(make_check("container.nvidia_visible_devices", Layer::container, Status::pass,
                                    "NVIDIA_VISIBLE_DEVICES=" + *visible, "", "",
                                    {"env.NVIDIA_VISIBLE_DEVICES"}));
    }

    if (auto capabilities = context.env("NVIDIA_DRIVER_CAPABILITIES")) {
        bool compute = has_capability(*capabilities, "compute");
        report.add_check(make_check(
            "container.nvidia_driver_capabilities", Layer::container, compute ? Status::pass : Status::fail,
            compute ? "NVIDIA_DRIVER_CAPABILITIES includes compute"
                    : "NVIDIA_DRIVER_CAPABILITIES=" + *capabilities +
                          " lacks compute: libcuda is not mounted into the container",
            "value '" + *capabilities + "'",
            compute ? ""
                    : "set NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all) and restart the container",
            {"env.NVIDIA_DRIVER_CAPABILITIES"}));
    }
}

}  // namespace strata
