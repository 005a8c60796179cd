// Messages of the container layer. Sources: Docker's daemon
// (daemon/devices.go: "could not select device driver"), the NVIDIA Container
// Toolkit (nvidia-container-cli, nvidia-container-runtime-hook, CDI specs),
// NVIDIA's k8s-device-plugin (cmd/nvidia-device-plugin, internal/rm) and the
// Kubernetes scheduler.
#include "explain/signal.h"

namespace strata {

const std::vector<Signal>& container_signals() {
    static const std::vector<Signal> signals = {
        {"docker.no_gpu_driver", "could not select device driver", "", "container_device_not_exposed",
         Layer::container, 96,
         "Docker has no device driver for --gpus: the NVIDIA Container Toolkit is not installed or not "
         "configured "
         "(nvidia-ctk runtime configure --runtime=docker, then restart dockerd)",
         "Docker daemon (daemon/devices.go)"},
        {"docker.unknown_runtime", "unknown or invalid runtime name: nvidia", "",
         "container_device_not_exposed", Layer::container, 95,
         "the nvidia runtime is not registered with the container engine", "Docker daemon"},
        // NGC images' entrypoint (/opt/nvidia/entrypoint.d) prints these.
        {"ngc.driver_not_detected", "the nvidia driver was not detected", "", "container_device_not_exposed",
         Layer::container, 85,
         "the container was started without the GPU (no --gpus / --runtime=nvidia / CDI device), or the host "
         "has no driver",
         "NGC container entrypoint"},
        {"ngc.driver_too_old", "this container was built for nvidia driver release",
         "built for nvidia driver release [\\d.]+ or later, but version [\\d.]+ was detected",
         "driver_too_old_for_runtime", Layer::driver, 92,
         "the host driver is older than the image's CUDA needs, and forward compatibility is unavailable on "
         "this GPU or driver: update the host driver or use an older image",
         "NGC container entrypoint"},
        {"k8s.default_runtime", "did you set the docker default runtime to", "",
         "container_device_not_exposed", Layer::container, 88,
         "the device plugin found no NVML in its container: the node's default runtime is not nvidia (or the "
         "node has no driver)",
         "NVIDIA k8s-device-plugin"},
        // An engine without CDI takes the CDI name for a device path: Podman
        // before 4.1 ("Error: stat nvidia.com/gpu=0: no such file or
        // directory"), Docker before 25 ("error gathering device information
        // while adding custom device \"nvidia.com/gpu=all\": no such file").
        {"cdi.name_taken_for_path",
         "nvidia.com/gpu=", "nvidia\\.com/gpu=[^\\s:\"]*\"?:\\s*no such file or directory",
         "container_device_not_exposed", Layer::container, 94,
         "the container engine has no CDI support and read the CDI device name as a file: no GPU was given "
         "to the container; use a newer engine (Podman 4.1, Docker 25 with CDI enabled) or the NVIDIA "
         "runtime's --gpus",
         "container engine (Podman, Docker) device parsing"},
        {"cdi.unresolvable", "unresolvable cdi devices", "", "container_device_not_exposed", Layer::container,
         95, "no CDI specification describes the requested GPUs: generate one (nvidia-ctk cdi generate)",
         "container engine (CDI)"},
        {"nvidia_container_cli.requirement", "requirement error: unsatisfied condition: cuda", "",
         "driver_too_old_for_runtime", Layer::driver, 96,
         "the image requires a newer CUDA than the host driver supports: update the host driver or use an "
         "older "
         "image",
         "nvidia-container-cli (NVIDIA_REQUIRE_CUDA)"},
        // nvidia-docker 1.0 compared the image's CUDA_VERSION label with the
        // driver's itself.
        {"nvidia_docker.unsupported_cuda", "unsupported cuda version",
         "unsupported cuda version: driver [\\d.]+ < image [\\d.]+", "driver_too_old_for_runtime",
         Layer::driver, 95,
         "the host driver supports an older CUDA than the image needs: update the host driver or use an "
         "image of the CUDA it supports",
         "nvidia-docker 1.0 (nvidia-docker-plugin)"},
        {"nvidia_container_cli.driver_not_loaded", "nvml error: driver not loaded", "", "driver_missing",
         Layer::driver, 90, "the host has no loaded NVIDIA driver for the container runtime to hand over",
         "nvidia-container-cli"},
        // The hook inspects the host's driver before it touches the container:
        // a driver file it cannot open there is the host's install, not the
        // container's ("detection error: open failed: …/libnvidia-tls.so.418.39").
        {"nvidia_container_cli.host_driver_file", "detection error",
         "detection error: open failed: \\S*(libnvidia|libcuda)\\S*: no such file", "driver_missing",
         Layer::driver, 87,
         "a driver file the host's loader cache lists is gone: a half-removed or mixed driver install on the "
         "host; reinstall the driver (and run ldconfig)",
         "nvidia-container-cli (driver detection)"},
        {"nvidia_container_cli.init", "nvidia-container-cli",
         "nvidia-container-cli:? (initialization|mount|detection|ldcache) error",
         "container_device_not_exposed", Layer::container, 85,
         "the container runtime hook could not give the GPU to the container (no driver on the host it runs "
         "on, "
         "or a broken toolkit install)",
         "nvidia-container-cli"},
        {"nvidia_container.hook", "nvidia-container-runtime-hook", "", "container_device_not_exposed",
         Layer::container, 60, "the NVIDIA runtime hook failed while starting the container",
         "nvidia-container-runtime-hook"},
        {"k8s.nvml_not_loaded", "could not load nvml library", "", "container_device_not_exposed",
         Layer::container, 90,
         "the device plugin pod got no driver libraries: the nvidia runtime is not the node's default "
         "runtime (or "
         "no RuntimeClass is set), or the driver root is wrong",
         "NVIDIA k8s-device-plugin (internal/rm)"},
        {"k8s.incompatible_strategy", "incompatible strategy detected", "", "container_device_not_exposed",
         Layer::container, 90,
         "the device plugin found neither NVML nor Tegra: the pod does not see the driver (set the nvidia "
         "runtime "
         "or RuntimeClass for it)",
         "NVIDIA k8s-device-plugin"},
        {"k8s.no_devices", "no devices found. waiting indefinitely", "", "container_device_not_exposed",
         Layer::container, 85, "the device plugin sees no GPU on the node", "NVIDIA k8s-device-plugin"},
        {"k8s.admission_unavailable", "requested number of devices unavailable for nvidia.com/gpu", "",
         "container_device_not_exposed", Layer::container, 85,
         "the kubelet admitted a pod the device plugin can no longer serve: the plugin lost its GPUs (driver "
         "reload, unhealthy GPU) or restarted; check the device plugin pod and nvidia-smi on the node",
         "kubelet device manager (UnexpectedAdmissionError)"},
        {"k8s.insufficient_gpu", "insufficient nvidia.com/gpu", "", "container_device_not_exposed",
         Layer::container, 80,
         "no node advertises a free nvidia.com/gpu: the device plugin is not running or every GPU is taken",
         "Kubernetes scheduler"},
        // `kubectl describe node` prints Capacity/Allocatable as
        // "nvidia.com/gpu:  0" when the device plugin registered no GPU.
        {"k8s.zero_gpus", "nvidia.com/gpu", "nvidia\\.com/gpu['\"]?\\s*:\\s*['\"]?0(?:[^0-9.]|$)",
         "container_device_not_exposed", Layer::container, 80,
         "the node advertises no nvidia.com/gpu: the device plugin is not running or sees no GPU (most "
         "often the nvidia runtime is not the container engine's default runtime)",
         "Kubernetes node status (kubectl describe node: Capacity, Allocatable)"},
        {"docker.nvidia_runtime_words", "error response from daemon",
         "error response from daemon.{0,200}(nvidia|gpu)", "container_device_not_exposed", Layer::container,
         55, "the container engine refused the GPU request", "Docker daemon"},
    };
    return signals;
}

}  // namespace strata
