#include "explain/ambiguous_evidence.h"

#include <algorithm>

namespace strata {

namespace {

// Commands that tell the usual causes apart, shared by several entries.
constexpr std::string_view kGpuOnBus =
    "lspci -nn | grep -i nvidia (no line: no NVIDIA GPU on this machine's bus)";
constexpr std::string_view kVisibleDevices =
    "echo \"[$CUDA_VISIBLE_DEVICES]\" (empty, -1 or an index past the GPU count hides every GPU)";
constexpr std::string_view kDeviceNodes = "ls -l /dev/nvidia* inside the container";
constexpr std::string_view kXidInLog =
    "dmesg | grep -i xid (an Xid at the time of the error points at the GPU)";
constexpr std::string_view kWhichCopy =
    "ldd on the failing library, LD_DEBUG=libs, or echo $LD_LIBRARY_PATH (which copy is loaded)";

const std::vector<AmbiguousEvidence>& table() {
    static const std::vector<AmbiguousEvidence> entries = {
        // No device: printed alike for a machine without a GPU, a driver that
        // is not loaded, a container without the GPU and a process that hides them.
        {{"CUDA_ERROR_NO_DEVICE", "cudaErrorNoDevice", "cuda.no_capable_device", "pytorch.no_gpus"},
         false,
         {{"driver_missing",
           "no NVIDIA GPU on this machine at all (a VM without passthrough, a CPU-only instance)", kGpuOnBus},
          {"container_device_not_exposed", "a container started without the GPU", kDeviceNodes},
          {"other", "CUDA_VISIBLE_DEVICES hides the GPUs from the process", kVisibleDevices}},
         "CUDA runtime API, cudaErrorNoDevice; PyTorch torch/cuda/__init__.py"},
        // cuInit's catch-all codes.
        {{"CUDA_ERROR_UNKNOWN", "cudaErrorUnknown", "cudaErrorInitializationError",
          "CUDA_ERROR_NOT_INITIALIZED"},
         false,
         {{"other", "a suspend/resume left the UVM module unusable",
           "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"},
          {"driver_missing", "/dev/nvidia-uvm was never created (nvidia-modprobe missing)",
           "ls -l /dev/nvidia-uvm"},
          {"container_device_not_exposed", "the container lost its device access (cgroup reset)",
           kDeviceNodes}},
         "CUDA driver API, cuInit; NVIDIA container toolkit issue #48"},
        {{"cuda.devices_unavailable", "cudaErrorDevicesUnavailable", "CUDA_ERROR_DEVICE_UNAVAILABLE"},
         false,
         {{"other", "the GPU is in exclusive-process compute mode and another process holds it",
           "nvidia-smi -q | grep -i 'compute mode'"},
          {"hardware_or_xid_fault", "the GPU needs a reset after a fault",
           "nvidia-smi -q | grep -i -A2 reset"},
          {"driver_missing", "a broken driver install", "dmesg | grep -i nvrm"}},
         "CUDA runtime API, cudaErrorDevicesUnavailable"},
        // nvidia-container-cli cannot load NVML: a broken toolkit or no driver on the host.
        {{"nvidia_container_cli.init"},
         false,
         {{"driver_missing", "no NVIDIA driver on the host", "nvidia-smi on the host, outside any container"},
          {"container_device_not_exposed", "a broken container toolkit install (ldconfig path, packages)",
           "nvidia-ctk --version; nvidia-container-cli -k -d /dev/tty info"}},
         "libnvidia-container, nvc.c driver initialisation"},
        {{"loader.unversioned_libcuda_missing"},
         false,
         {{"missing_or_mismatched_shared_library",
           "the driver works, but only libcuda.so.1 is installed and the program asks for the unversioned "
           "name "
           "(WSL, container mounts)",
           "ldconfig -p | grep libcuda (libcuda.so.1 listed, libcuda.so not)"}},
         "glibc dlopen; WSL's /usr/lib/wsl/lib; libnvidia-container mounts"},
        {{"nvidia_smi.no_nvml_library"},
         false,
         {{"missing_or_mismatched_shared_library",
           "the driver's libraries are present but off the search path",
           "ldconfig -p | grep libnvidia-ml; echo $LD_LIBRARY_PATH"},
          {"container_device_not_exposed", "a container started without the driver's libraries",
           kDeviceNodes}},
         "nvidia-smi"},
        {{"cudaErrorSystemDriverMismatch", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
         false,
         {{"forward_compat_on_unsupported_gpu", "a cuda-compat libcuda loaded on a GPU it does not support",
           "ldconfig -p | grep libcuda; echo $LD_LIBRARY_PATH | tr : '\\n' | grep compat"},
          {"wrong_library_via_LD_LIBRARY_PATH", "another driver release's libcuda found first", kWhichCopy},
          {"driver_missing",
           "the user-mode driver was updated while the old kernel module stays loaded (reboot)",
           "cat /proc/driver/nvidia/version vs. the libcuda.so.1 release"}},
         "CUDA runtime API, cudaErrorSystemDriverMismatch"},
        // 804 is what cuInit says when a libcuda newer than the loaded kernel
        // module meets a GPU without forward compatibility: a cuda-compat
        // package on a GeForce, and equally a driver updated without a
        // reboot (the new libcuda, the old module).
        {{"forward_compat.words", "cudaErrorCompatNotSupportedOnDevice",
          "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
         true,
         {{"driver_missing",
           "the user-mode driver was updated while the old kernel module stays loaded (reboot)",
           "cat /proc/driver/nvidia/version vs. the libcuda.so.1 release"}},
         "CUDA Compatibility guide (forward compatibility, error 804); CUDA driver API, "
         "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
        {{"xla.dnn_init_failed"},
         false,
         {{"other", "the GPU ran out of memory as cuDNN started",
           "XLA_PYTHON_CLIENT_PREALLOCATE=false, or nvidia-smi"},
          {"driver_too_old_for_runtime", "a driver older than the CUDA jaxlib was built for",
           "nvidia-smi (the CUDA Version it prints) vs. jaxlib's CUDA"}},
         "XLA, stream_executor/cuda/cuda_dnn.cc"},
        // Kernel faults: the program's own bug far more often than the GPU.
        {{"cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED", "cudaErrorIllegalAddress",
          "CUDA_ERROR_ILLEGAL_ADDRESS", "cudaErrorIllegalInstruction", "CUDA_ERROR_ILLEGAL_INSTRUCTION",
          "cudaErrorMisalignedAddress", "CUDA_ERROR_MISALIGNED_ADDRESS", "cudaErrorHardwareStackError",
          "CUDA_ERROR_HARDWARE_STACK_ERROR"},
         true,
         {{"hardware_or_xid_fault", "an unstable (overclocked, undervolted) or failing GPU", kXidInLog}},
         "CUDA runtime API; NVIDIA Xid 13/31 (a program's fault) vs. 48/79 (the GPU's)"},
        {{"CUDA_ERROR_NO_BINARY_FOR_GPU"},
         true,
         {{"driver_missing", "the driver's PTX JIT library (libnvidia-ptxjitcompiler) is not installed",
           "ldconfig -p | grep ptxjitcompiler"}},
         "CUDA driver API, cuModuleLoad"},
        {{"cudaErrorInvalidPtx", "CUDA_ERROR_INVALID_PTX"},
         true,
         {{"no_kernel_image_for_gpu_arch", "PTX built for a newer GPU than this one",
           "strata arch --sm <this GPU> on the binary"}},
         "CUDA driver API, cuModuleLoadData"},
        {{"NVRTC_ERROR_INVALID_OPTION"},
         true,
         {{"missing_or_mismatched_shared_library",
           "an older libnvrtc than the program was built for is loaded", kWhichCopy}},
         "NVRTC, nvrtcCompileProgram"},
        // The runtime says the same when it finds no libcuda at all: a
        // container started without the NVIDIA runtime (no --gpus, no --nv).
        {{"cudaErrorInsufficientDriver", "CUDA_ERROR_INSUFFICIENT_DRIVER"},
         true,
         {{"container_device_not_exposed",
           "a container started without the NVIDIA runtime (no libcuda at all)",
           "nvidia-smi inside the container (no driver there: the runtime did not mount it)"}},
         "CUDA runtime API, cudaErrorInsufficientDriver",
         true},
        {{"nvidia_smi.no_driver"},
         true,
         {{"hardware_or_xid_fault", "the GPU's PCIe link did not come up (riser, slot, BIOS link speed)",
           "lspci -vv -s <the GPU> | grep -i lnksta; dmesg | grep -i -E 'aer|nvrm'"}},
         "nvidia-smi"},
        {{"tensorflow.cudnn_loaded_vs_compiled", "loader.cudnn_symbol", "loader.nccl_symbol",
          "pytorch.bundled_cudnn"},
         true,
         {{"wrong_library_via_LD_LIBRARY_PATH", "another copy of the library is found first", kWhichCopy},
          {"nccl_or_cudnn_version_mismatch", "the installed release is not the one the program was built for",
           "pip list | grep -i -E 'cudnn|nccl'"}},
         "the frameworks' cuDNN and NCCL version checks"},
        {{"loader.symbol", "loader.torch_abi_symbol"},
         true,
         {{"wrong_library_via_LD_LIBRARY_PATH", "a stale copy of the library is found first", kWhichCopy},
          {"other", "an extension imported before the library that defines the symbol (import torch first)",
           "python -c 'import torch, <extension>'"}},
         "glibc, undefined symbol"},
        {{"cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY", "pytorch.out_of_memory"},
         true,
         {{"other", "another process holds the GPU's memory",
           "nvidia-smi --query-compute-apps=pid,used_memory --format=csv"}},
         "CUDA runtime API, cudaErrorMemoryAllocation"},
    };
    return entries;
}

}  // namespace

const std::vector<AmbiguousEvidence>& all_ambiguous_evidence() {
    return table();
}

const AmbiguousEvidence* find_ambiguous_evidence(std::string_view finding_id) {
    for (const AmbiguousEvidence& entry : table())
        if (std::find(entry.ids.begin(), entry.ids.end(), finding_id) != entry.ids.end()) return &entry;
    return nullptr;
}

}  // namespace strata
