// The table behind `strata explain`, seeded from the failures users reported
// (shared/scenarios/failure-reports.jsonl) and the CUDA error tables in the
// reference sheets. Order matters: specific patterns come before general ones.
#include "explain/explain.h"

namespace strata {

namespace {

std::vector<ExplainRule> build_rules() {
    const ExplainCause kernel_module{"no NVIDIA kernel module is loaded", "driver.kernel_module"};
    const ExplainCause libcuda{"libcuda.so.1 is missing or is the toolkit's stub", "driver.libcuda"};
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
    const std::string arch_check =
        "strata arch <the failing library or executable> (lists its SASS/PTX and the GPU's verdict)";

    return {
        {"forward_compat_on_unsupported_gpu",
         Layer::driver,
         "a forward-compatibility libcuda (cuda-compat) on a GPU that does not support it (error 804)",
         {R"(forward compatibility was attempted)", R"(\b(error|code)[ =:]*804\b)",
          R"(COMPAT_NOT_SUPPORTED)"},
         {init, {"the loaded libcuda is a forward-compatibility copy", "driver.libcuda.load"}},
         {"ls -l $(ldconfig -p | grep libcuda.so.1)", "echo $LD_LIBRARY_PATH | tr : '\\n' | grep compat"}},
        {"wrong_library_via_LD_LIBRARY_PATH",
         Layer::driver,
         "the user-mode driver does not match the kernel module (error 803), usually a second libcuda on the "
         "path",
         {R"(unsupported display driver / cuda driver combination)", R"(\b(error|code)[ =:]*803\b)",
          R"(SYSTEM_DRIVER_MISMATCH)"},
         {versions, init, duplicates},
         {"cat /proc/driver/nvidia/version", "ldconfig -p | grep libcuda"}},
        {"driver_missing",
         Layer::driver,
         "the NVIDIA user-mode libraries do not match the loaded kernel module",
         {R"(Driver/library version mismatch)"},
         {versions, kernel_module},
         {"cat /proc/driver/nvidia/version", "nvidia-smi", "dpkg -l | grep nvidia"}},
        {"container_device_not_exposed",
         Layer::container,
         "the container runtime did not inject the driver (NVML/libcuda) into the container",
         {R"(nvidia-container-cli)", R"(could not load NVML library)", R"(Failed to start nvml)",
          R"(libnvidia-ml\.so\.1: cannot open)"},
         {visible, nodes, libcuda},
         {"docker info | grep -i runtime", "nvidia-ctk --version", "ls /dev/nvidia*"}},
        {"driver_missing",
         Layer::driver,
         "no working NVIDIA driver is reachable",
         {R"(couldn't communicate with the NVIDIA driver)", R"(Found no NVIDIA driver)",
          R"(NVIDIA driver is not (installed|loaded|running))", R"(no CUDA-capable device is detected)",
          R"(CUDA_ERROR_NO_DEVICE)"},
         {kernel_module, libcuda, nodes, visible},
         {"lsmod | grep nvidia", "dmesg | grep -i nvrm",
          "mokutil --sb-state (Secure Boot refuses unsigned modules)"},
         "container_device_not_exposed"},
        {"other",
         Layer::driver,
         "the system is not ready: on NVSwitch machines, the fabric manager",
         {R"(system not yet initialized)", R"(SYSTEM_NOT_READY)", R"(\b(error|code|failure)[ =:]*802\b)"},
         {init},
         {"systemctl status nvidia-fabricmanager", "nvidia-smi -q | grep -i fabric"}},
        {"other",
         Layer::driver,
         "cuInit failed to initialise (error 3): a driver or UVM problem on this platform",
         {R"(init(ialization)? failure: 3\b)", R"(CUDA_ERROR_NOT_INITIALIZED)"},
         {init, kernel_module},
         {"lsmod | grep nvidia_uvm", "dmesg | grep -i -E 'nvrm|xid|uvm'"}},
        {"driver_too_old_for_runtime",
         Layer::runtime,
         "the driver is older than the CUDA runtime the program uses",
         {R"(driver (on your system )?(is )?too old)", R"(driver version is insufficient)",
          R"(cudaErrorInsufficientDriver)", R"(found version \d{5})",
          R"(undefined symbol:? \"?cu[A-Z]\w*_v\d)"},
         {runtime_newer, framework_cuda, libcuda, kernel_module},
         {"nvidia-smi (the 'CUDA Version' it prints is the newest runtime the driver supports)",
          "strata frameworks (each framework's CUDA build against this driver)"}},
        {"ptx_too_new_for_driver",
         Layer::kernel,
         "the PTX was built by a newer toolkit than the driver can JIT-compile (error 222)",
         {R"(PTX was compiled with an unsupported toolchain)", R"(UnsupportedPtxVersion)",
          R"(UNSUPPORTED_PTX_VERSION)", R"(\b(error|code)[ =:(]*222\b)"},
         {runtime_newer, own_images},
         {arch_check, "nvidia-smi (driver version)"}},
        {"wrong_library_via_LD_LIBRARY_PATH",
         Layer::library,
         "an older tool or library found first on PATH / LD_LIBRARY_PATH shadows the one the program needs",
         {R"(ptxas.*Unsupported \.version)", R"(trying file=.*LD_LIBRARY_PATH)", R"(\(LD_LIBRARY_PATH\))",
          R"(PyTorch already comes bundled with cuDNN)",
          R"(compiled\s+against .* but found runtime version)"},
         {framework_libraries, duplicates, stub_path},
         {"echo $LD_LIBRARY_PATH", "LD_DEBUG=libs <program> 2>&1 | grep 'trying file'", "which -a ptxas"}},
        {"no_kernel_image_for_gpu_arch",
         Layer::kernel,
         "the binary has no SASS for this GPU and no PTX it can JIT from",
         {R"(no kernel image is available)", R"(not compatible with the current \w+ installation)",
          R"(no device code compatible)", R"(not built with CUDA kernel binaries compatible)",
          R"(NO_BINARY_FOR_GPU)", R"(\b(error|code)[ =:]*209\b)", R"(Value 'sm_\w+' is not defined)",
          R"(does not support target 'sm_)", R"(named symbol not found)"},
         {framework_arch, own_images},
         {arch_check, "nvidia-smi --query-gpu=name,compute_cap --format=csv",
          "strata frameworks --sm <the GPU's CC> (each framework's device code against it)"}},
        {"nccl_or_cudnn_version_mismatch",
         Layer::library,
         "the NCCL or cuDNN that was loaded is older than the one the program was built against",
         {R"(undefined symbol:? \"?nccl\w+)", R"(Outdated cuDNN)", R"(cuDNN version (is )?incompatib)",
          R"(NCCL version mismatch)"},
         {framework_libraries, library_layer, duplicates},
         {"strata doctor (library layer: versions and every copy on the path)"}},
        {"missing_or_mismatched_shared_library",
         Layer::library,
         "a CUDA library the program needs is missing, or a different build of it was loaded",
         {R"(cannot open shared object file)", R"(not found in the system path)",
          R"(Could not load dynamic library)", R"(failed to load lib\w+\.so)",
          R"(Multiple lib\w+ libraries found)", R"(undefined symbol:? \"?__nv\w+)"},
         {framework_libraries, library_layer, duplicates},
         {"ldconfig -p | grep -E 'cudart|cublas|cudnn|nccl|nvrtc|nvJitLink'", "pip list | grep nvidia-"}},
        {"other",
         Layer::framework,
         "the framework and its CUDA plugin come from different releases",
         {R"(PJRT (plugin )?API version)", R"(Mismatched PJRT)"},
         {{"jaxlib and its CUDA plugin are from different releases", "framework.libraries."}},
         {"pip list | grep -E 'jax|pjrt'"}},
    };
}

}  // namespace

const std::vector<ExplainRule>& explain_rules() {
    static const std::vector<ExplainRule> rules = build_rules();
    return rules;
}

}  // namespace strata
