#include "explain/failure_classes.h"

#include <algorithm>

namespace strata {

namespace {

std::vector<FailureClass> build_classes() {
    const ExplainCause kernel_module{"no NVIDIA kernel module is loaded", "driver.kernel_module"};
    const ExplainCause libcuda{"libcuda.so.1 is missing or is the toolkit's stub", "driver.libcuda"};
    const ExplainCause unversioned_libcuda{
        "libcuda.so.1 is here, but not the unversioned libcuda.so that Triton and dlopen(\"libcuda.so\") "
        "need",
        "driver.libcuda_unversioned"};
    const ExplainCause versions{"the user-mode driver and the kernel module differ",
                                "driver.version_agreement"};
    const ExplainCause init{"cuInit fails on this machine", "driver.cuda_init"};
    const ExplainCause nodes{"no /dev/nvidia* device nodes (the GPU is not given to this container)",
                             "device.nodes"};
    const ExplainCause visible{"NVIDIA_VISIBLE_DEVICES does not ask the container runtime for GPUs",
                               "container.nvidia_visible_devices"};
    const ExplainCause runtime_newer{"the driver is older than the CUDA runtime",
                                     "runtime.driver_compatibility"};
    const ExplainCause duplicates{"a second copy of a CUDA library on the search path wins",
                                  "host.search_path.duplicates"};
    const ExplainCause stub_path{"LD_LIBRARY_PATH holds the toolkit's stub libcuda",
                                 "driver.search_path.stub_libcuda"};
    const ExplainCause own_images{"strata's own kernels have no image for a GPU here",
                                  "kernel.strata_images"};
    const ExplainCause library_layer{"a library plugin reports a version or load problem", "library."};
    const ExplainCause framework_arch{"an installed framework has no device code this GPU can run",
                                      "framework.architectures."};
    const ExplainCause framework_cuda{"an installed framework is built for a newer CUDA than the driver runs",
                                      "framework.cuda_driver."};
    const ExplainCause framework_libraries{
        "a framework is given another build of a CUDA library than it needs (or misses one)",
        "framework.libraries."};
    const ExplainCause compat{"the loaded libcuda is a forward-compatibility copy", "driver.forward_compat"};
    const ExplainCause devices{"a GPU reports a fault or is missing", "device."};
    const ExplainCause uvm{"/dev/nvidia-uvm is missing, so cuInit fails with an unknown error", "device.uvm"};
    const ExplainCause compute_mode{"a GPU is in exclusive or prohibited compute mode",
                                    "device.compute_mode"};
    const ExplainCause shared_memory{"/dev/shm is too small for NCCL and DataLoader workers",
                                     "container.shared_memory"};
    const std::string_view arch_check =
        "strata arch <the failing library or executable> (its SASS/PTX and the GPU's verdict)";

    return {
        {"driver_missing",
         "no working NVIDIA driver is reachable (kernel module, user-mode libraries, or the two disagree)",
         {kernel_module, libcuda, unversioned_libcuda, versions, nodes},
         {"cat /proc/driver/nvidia/version", "lsmod | grep nvidia", "dmesg | grep -i nvrm",
          "mokutil --sb-state (Secure Boot refuses unsigned modules)"}},
        {"container_device_not_exposed",
         "the container runtime did not give the GPU (device nodes and driver libraries) to the container",
         {visible, nodes, libcuda},
         {"docker info | grep -i runtime", "nvidia-ctk --version", "ls -l /dev/nvidia*",
          "kubectl describe node <node> | grep nvidia.com/gpu"}},
        {"driver_too_old_for_runtime",
         "the driver is older than the CUDA runtime (or library) the program uses",
         {runtime_newer, framework_cuda, libcuda},
         {"nvidia-smi (the 'CUDA Version' it prints is the newest runtime the driver supports)",
          "strata frameworks (each framework's CUDA build against this driver)"}},
        {"wrong_library_via_LD_LIBRARY_PATH",
         "a copy found earlier on the search path (LD_LIBRARY_PATH, RUNPATH, conda, a second toolkit) "
         "shadows the "
         "one the program needs",
         {framework_libraries, duplicates, stub_path},
         {"echo $LD_LIBRARY_PATH | tr : '\\n'",
          "LD_DEBUG=libs <program> 2>&1 | grep -E 'trying file|calling init'",
          "ldconfig -p | grep -E 'cuda|cublas|cudnn|nccl|nvJitLink'"}},
        {"forward_compat_on_unsupported_gpu",
         "a forward-compatibility libcuda (cuda-compat) is used on a GPU or driver branch that does not "
         "support it",
         {compat, init},
         {"ldconfig -p | grep libcuda.so.1", "echo $LD_LIBRARY_PATH | tr : '\\n' | grep compat",
          "nvidia-smi --query-gpu=name,driver_version --format=csv"}},
        {"ptx_too_new_for_driver",
         "the PTX was produced by a newer toolkit than this driver can JIT-compile",
         {runtime_newer, own_images},
         {arch_check, "nvidia-smi (driver version)"}},
        {"no_kernel_image_for_gpu_arch",
         "the code has no SASS for this GPU and no PTX it can JIT from (or the toolchain cannot target the "
         "GPU)",
         {framework_arch, own_images},
         {arch_check, "nvidia-smi --query-gpu=name,compute_cap --format=csv",
          "strata frameworks --sm <the GPU's CC> (each framework's device code against it)"}},
        {"missing_or_mismatched_shared_library",
         "a CUDA library the program needs is missing, or a different build of it was loaded",
         {framework_libraries, library_layer, duplicates, unversioned_libcuda},
         {"ldconfig -p | grep -E 'cudart|cublas|cudnn|nccl|nvrtc|nvJitLink'", "pip list | grep nvidia-",
          "ldd <the failing library> | grep 'not found'",
          "strata frameworks --python <the program's python> (each framework's libraries, and each "
          "package built on one against the framework's exports)"}},
        {"nccl_or_cudnn_version_mismatch",
         "the NCCL or cuDNN that was loaded is not the one the program was built against",
         {framework_libraries, library_layer, duplicates},
         {"strata doctor (library layer: versions and every copy on the path)",
          "python -c 'import torch; print(torch.backends.cudnn.version(), torch.cuda.nccl.version())'"}},
        {"hardware_or_xid_fault",
         "the GPU or its links report a fault (Xid event, ECC, fallen off the bus, thermal or power)",
         {devices},
         {"dmesg | grep -i xid", "nvidia-smi -q -d ECC,ROW_REMAPPER,PERFORMANCE,TEMPERATURE,POWER",
          "nvidia-smi --query-gpu=pci.bus_id,clocks_event_reasons.active --format=csv",
          "lspci -vvv -d 10de: | grep -i -E 'lnksta|aer'"}},
        {"other",
         "a CUDA-stack failure outside the classes above (driver state, application fault, resources)",
         {init, kernel_module, uvm, shared_memory, compute_mode},
         {"strata doctor --markdown", "dmesg | grep -i -E 'nvrm|xid|uvm'"}},
    };
}

}  // namespace

const std::vector<FailureClass>& failure_classes() {
    static const std::vector<FailureClass> classes = build_classes();
    return classes;
}

const FailureClass* find_failure_class(std::string_view name) {
    const auto& classes = failure_classes();
    auto it =
        std::find_if(classes.begin(), classes.end(), [&](const FailureClass& c) { return c.name == name; });
    return it == classes.end() ? nullptr : &*it;
}

const std::vector<std::string_view>& what_to_collect() {
    static const std::vector<std::string_view> collect = {
        "strata doctor --markdown (every layer of this machine, ready to paste)",
        "nvidia-smi -q (driver, GPUs, ECC, clocks)",
        "dmesg | grep -i -E 'nvrm|xid' (kernel-side driver messages and Xid events)",
        "the complete log, from the first error line, not only its last line",
    };
    return collect;
}

}  // namespace strata
