// Messages of the driver layer: nvidia-smi and NVML, the kernel module
// (NVRM lines in dmesg), modprobe and Secure Boot, cuda-compat, UVM and the
// NVSwitch fabric manager; and the driver-version words of the runtimes that
// call it. Sources: nvidia-smi's and NVRM's own output (NVIDIA driver
// README, "Common Problems"), glibc's modprobe/kmod messages, the CUDA
// Compatibility guide, PyTorch c10/cuda/CUDAFunctions.cpp.
#include "explain/signal.h"

namespace strata {

const std::vector<Signal>& driver_signals() {
    static const std::vector<Signal> signals = {
        {"nvidia_smi.no_driver", "couldn't communicate with the nvidia driver", "", "driver_missing",
         Layer::driver, 95,
         "nvidia-smi cannot reach the kernel module: it is not loaded (not installed, refused by Secure "
         "Boot, or "
         "built for another kernel)",
         "nvidia-smi", "container_device_not_exposed"},
        // In a container that started, the runtime's hook has already run NVML
        // against the host's module with the host's libraries (and refuses to
        // start the container when they differ, below): a mismatch seen inside
        // it comes from driver libraries the image carries itself.
        // Ranked above cuInit's forward-compatibility words (804): a
        // user-mode driver newer than the loaded module is what that check
        // sees too, so the two are printed together after an update without
        // a reboot, and NVML's names the cause.
        {"nvml.version_mismatch", "driver/library version mismatch", "", "driver_missing", Layer::driver, 97,
         "the user-mode driver libraries differ from the loaded kernel module: on a host, a driver update "
         "without a reboot (reboot or reload the module); inside a running container, driver libraries "
         "installed in the image shadow the host's that the runtime mounts (remove them from the image)",
         "NVML (nvidia-smi: Failed to initialize NVML)", "container_device_not_exposed"},
        {"nvidia_container_cli.host_version_mismatch", "nvml error: driver/library version mismatch", "",
         "driver_missing", Layer::driver, 98,
         "the container runtime's hook found the host's driver libraries and kernel module at different "
         "versions (a driver update without a reboot): reboot the host or reload the module",
         "nvidia-container-cli (runs on the host)"},
        {"nvrm.api_mismatch", "api mismatch", "nvrm.*api mismatch|api mismatch.*client has the version",
         "driver_missing", Layer::driver, 95,
         "the kernel module and the user-mode driver are different versions", "NVRM kernel log"},
        // TensorFlow's cuda_diagnostics after a failed cuInit: no kernel
        // module answers. It outranks the cuInit code beside it: with no
        // driver, what libcuda there is is the toolkit's stub (34) or none.
        {"tensorflow.no_kernel_driver", "does not appear to be running on this host", "", "driver_missing",
         Layer::driver, 90,
         "no NVIDIA kernel module is loaded here (/proc/driver/nvidia/version is absent): the driver is not "
         "installed or not loaded",
         "TensorFlow stream_executor/cuda/cuda_diagnostics.cc", "container_device_not_exposed"},
        {"tensorflow.no_device_node", "no nvidia gpu device is present", "", "driver_missing", Layer::driver,
         86,
         "the GPU's device node (/dev/nvidia0) does not exist: the kernel module is not loaded, or nothing "
         "created the nodes (nvidia-modprobe)",
         "TensorFlow stream_executor/cuda/cuda_diagnostics.cc", "container_device_not_exposed"},
        {"tensorflow.kernel_dso_mismatch", "does not match dso version", "", "driver_missing", Layer::driver,
         95, "the loaded kernel module and libcuda differ in version",
         "TensorFlow stream_executor (cuda_diagnostics)"},
        // The shell's "command not found", runc's "executable file not found
        // in $PATH", which(1)'s "no nvidia-smi in". nvidia-smi ships with the
        // driver; inside a container the NVIDIA runtime mounts it from the
        // host, so its absence there means the GPU was not handed over.
        {"nvidia_smi.absent", "nvidia-smi",
         "nvidia-smi['\"`]?:?\\s+(command\\s+)?not found|nvidia-smi['\"`]?:?\\s+no such file|no nvidia-smi "
         "in|"
         // The shell's own words in de, fr, es, zh_CN and ja locales.
         "nvidia-smi\\s*:\\s*(befehl nicht gefunden|commande introuvable|no se encontr(o|\u00f3) la orden|"
         "\u672a\u627e\u5230\u547d\u4ee4|"
         "\u30b3\u30de\u30f3\u30c9\u304c\u898b\u3064\u304b\u308a\u307e\u305b\u3093)",
         "driver_missing", Layer::driver, 72,
         "nvidia-smi is not installed: the NVIDIA driver (with its utilities) is not installed on this "
         "system",
         "bash/sh (command not found), which(1)", "container_device_not_exposed"},
        // runc names the file first ("nvidia-smi": executable file not found),
        // crun after the words (executable file `nvidia-smi` not found).
        {"runc.nvidia_smi_not_in_image", "executable file",
         "nvidia-smi['\"`]?:?\\s+executable file not found|executable file ['\"`]?nvidia-smi['\"`]? not "
         "found",
         "container_device_not_exposed", Layer::container, 74,
         "the container has no nvidia-smi: it was started without the NVIDIA runtime (--gpus, "
         "--runtime=nvidia or a CDI device) or without the utility capability "
         "(NVIDIA_DRIVER_CAPABILITIES)",
         "runc / containerd (exec: executable file not found in $PATH), crun"},
        {"nvidia_smi.no_devices", "no devices were found", "", "driver_missing", Layer::driver, 80,
         "the driver is loaded but enumerates no GPU (not bound, fallen off the bus, or hidden)",
         "nvidia-smi", "container_device_not_exposed"},
        {"nvrm.probe_not_called", "nvidia probe routine was not called", "", "driver_missing", Layer::driver,
         80, "the kernel module found no GPU to bind (another driver such as nouveau or vfio holds it)",
         "NVRM kernel log"},
        {"nvrm.no_gpu", "no nvidia gpu found", "", "driver_missing", Layer::driver, 75,
         "the kernel module sees no NVIDIA GPU", "NVRM kernel log"},
        {"nvrm.probe_failed", "nvidia probe routine failed", "", "driver_missing", Layer::driver, 85,
         "the kernel module could not take the GPU (see the NVRM lines before: an unsupported GPU, another "
         "driver holding it, or a failed initialisation)",
         "NVRM kernel log"},
        // "NVRM: installed in this system is not supported by the NVIDIA
        // 390.144 driver release" (the GPU's PCI id is on the line before), and
        // the open modules' "… is not supported by open nvidia.ko because it
        // does not include the required GPU System Processor".
        {"nvrm.gpu_not_supported", "installed in this system is not supported by", "", "driver_missing",
         Layer::driver, 90,
         "this driver branch does not support the GPU (a branch older than the GPU, a legacy GPU it "
         "dropped, or open kernel modules on a GPU without GSP): install a branch that lists the GPU",
         "NVRM kernel log"},
        {"installer.nouveau", "nouveau kernel driver is currently in use", "", "driver_missing",
         Layer::driver, 88,
         "nouveau holds the GPU, so the NVIDIA module cannot load: blacklist nouveau, rebuild the initramfs "
         "and reboot",
         "NVIDIA driver installer (nvidia-installer)"},
        // DKMS prints "Error! Bad return status for module build on kernel: …"
        // and then points at the nvidia module's make.log.
        {"dkms.nvidia_build", "dkms",
         "dkms/nvidia\\S*/build/make\\.log|dkms.{0,60}nvidia.{0,120}(error|fail)|(error|fail).{0,120}dkms.{0,"
         "20}nvidia",
         "driver_missing", Layer::driver, 82,
         "DKMS could not build the nvidia module for this kernel (kernel headers missing, or a kernel newer "
         "than the driver supports): no module, no driver",
         "DKMS"},
        {"nvidia_smi.no_nvml_library", "couldn't find libnvidia-ml", "", "driver_missing", Layer::driver, 88,
         "nvidia-smi is there but NVML (libnvidia-ml.so, part of the driver) is not: an incomplete or "
         "removed driver install",
         "nvidia-smi", "container_device_not_exposed"},
        // The driver's user-mode library opening the device nodes.
        {"driver.device_file_missing", "could not open the device file",
         "could not open the device file /dev/nvidia\\S* \\((no such file|does not exist)", "driver_missing",
         Layer::driver, 84,
         "the GPU's device node is absent: the module is not loaded, or nvidia-modprobe did not create the "
         "node",
         "NVIDIA user-mode driver", "container_device_not_exposed"},
        {"driver.device_file_denied", "could not open the device file",
         "could not open the device file /dev/nvidia\\S* \\((permission denied|operation not permitted)",
         "other", Layer::driver, 84,
         "the process may not open the GPU's device node: its permissions (the video/render group, "
         "NVreg_DeviceFileMode) or a device cgroup forbid it",
         "NVIDIA user-mode driver", "container_device_not_exposed"},
        // The toolkit ships a libcuda.so in lib64/stubs for linking without a
        // driver; a process that loads it has no driver at all.
        {"driver.stub_libcuda_loaded", "stubs/libcuda.so", "stubs/libcuda\\.so",
         "wrong_library_via_LD_LIBRARY_PATH", Layer::driver, 62,
         "the toolkit's stub libcuda (lib64/stubs, for linking only) is what gets loaded: take the stubs "
         "directory off LD_LIBRARY_PATH (or the loader cache) so the driver's libcuda.so.1 is found",
         "CUDA toolkit stub libraries"},
        {"apptainer.no_nv_files", "could not find any nv files on this host", "", "driver_missing",
         Layer::driver, 80,
         "--nv found no NVIDIA driver libraries on this host (none installed, or not in the ldconfig cache): "
         "run on a node with the driver",
         "Apptainer / Singularity (--nv)"},
        {"numba.no_driver_library", "cuda driver library cannot be found", "", "driver_missing",
         Layer::driver, 88, "numba found no libcuda: no driver (or none given to this container)",
         "numba numba/cuda/cudadrv/driver.py", "container_device_not_exposed"},
        {"pytorch.driver_init_failed", "cuda driver initialization failed", "", "driver_missing",
         Layer::driver, 80,
         "cuInit failed, so PyTorch sees no GPU: no driver, no device nodes, or a broken driver install",
         "PyTorch (older c10/cuda)", "container_device_not_exposed"},
        {"modprobe.not_found", "module nvidia not found", "", "driver_missing", Layer::driver, 90,
         "the nvidia kernel module is not built for the running kernel (DKMS failed or the kernel was "
         "updated)",
         "modprobe (kmod)"},
        {"modprobe.insert_failed", "could not insert 'nvidia", "", "driver_missing", Layer::driver, 90,
         "the nvidia kernel module could not be loaded", "modprobe (kmod)"},
        {"secure_boot.key_rejected", "key was rejected by service", "", "driver_missing", Layer::driver, 90,
         "Secure Boot refused the unsigned nvidia module: sign it (MOK) or disable Secure Boot",
         "kernel module loader"},
        {"secure_boot.required_key", "required key not available", "", "driver_missing", Layer::driver, 85,
         "Secure Boot refused the unsigned nvidia module: sign it (MOK) or disable Secure Boot",
         "kernel module loader"},
        // The same refusal in the words of the kernel (lockdown, signature
        // enforcement) and of the driver installer, which the GPU Operator's
        // driver container prints too: the host kernel refuses the module
        // there as well, so no container class applies.
        {"kernel.unsigned_module_rejected", "loading of unsigned module is rejected", "", "driver_missing",
         Layer::driver, 92,
         "the kernel enforces module signatures (Secure Boot, lockdown or module.sig_enforce) and the nvidia "
         "module is unsigned: enroll the key that signs it (MOK), use signed driver packages, or disable "
         "Secure Boot",
         "Linux kernel module loader (module signature verification)"},
        {"lockdown.unsigned_module", "unsigned module loading is restricted", "", "driver_missing",
         Layer::driver, 92,
         "kernel lockdown (Secure Boot) refuses the unsigned nvidia module: enroll the key that signs it "
         "(MOK), use signed driver packages, or disable Secure Boot",
         "Linux kernel lockdown (security/lockdown)"},
        {"nvidia_installer.module_not_signed", "not signed by a key that is trusted by the kernel", "",
         "driver_missing", Layer::driver, 92,
         "the kernel enforces module signatures and the freshly built nvidia module is unsigned: sign it "
         "with an enrolled key (the installer's --module-signing-secret-key, or DKMS's MOK key), use "
         "precompiled signed drivers, or disable Secure Boot",
         "nvidia-installer (GPU Operator driver container)"},
        {"nvidia_installer.module_load_failed", "unable to load the kernel module 'nvidia", "",
         "driver_missing", Layer::driver, 78,
         "the driver installer built the nvidia module but the kernel would not load it: a module built "
         "against other kernel sources, nouveau holding the GPU, a refused signature (Secure Boot), or a GPU "
         "this driver release does not support; the installer's 'Kernel messages' say which",
         "nvidia-installer"},
        {"driver.not_loaded_words", "nvidia driver is not", "nvidia driver is not (installed|loaded|running)",
         "driver_missing", Layer::driver, 80, "no NVIDIA driver is running", "various CUDA applications",
         "container_device_not_exposed"},
        {"pytorch.no_driver", "found no nvidia driver", "", "driver_missing", Layer::driver, 90,
         "the CUDA runtime found no driver (libcuda or the kernel module is missing)",
         "PyTorch torch/cuda/__init__.py", "container_device_not_exposed"},
        {"tensorflow.no_driver", "could not find cuda drivers on your machine", "", "driver_missing",
         Layer::driver, 80, "TensorFlow found no libcuda: no driver (or none given to this container)",
         "TensorFlow xla/tsl cuda_executor", "container_device_not_exposed"},
        // cudaErrorDevicesUnavailable (46): the runtime's older wording and
        // the one its headers print now.
        // cudaErrorPeerAccessUnsupported in any wrapper's words (and cut short).
        {"cuda.peer_access_unsupported", "peer access is not supported", "", "other", Layer::device, 80,
         "these two GPUs cannot reach each other's memory directly: GeForce cards (RTX 3090 and later) have "
         "no "
         "peer-to-peer support, and PCIe topology or the IOMMU can forbid it (nvidia-smi topo -p2p r); run "
         "without peer access (NCCL_P2P_DISABLE=1) or on GPUs that have it",
         "CUDA runtime (cudaErrorPeerAccessUnsupported)"},
        {"cuda.devices_unavailable", "busy or unavailable",
         "cuda-capable devices?(\\(s\\))? (is/are|are|is) busy or unavailable", "other", Layer::device, 85,
         "every GPU this process may use is taken: a GPU in exclusive compute mode another process already "
         "holds (nvidia-smi shows 'E. Process'), a prohibited GPU, or one still held by a hung process "
         "(nvidia-smi's process list)",
         "CUDA runtime (cudaErrorDevicesUnavailable, 46)"},
        // Operations a vGPU profile (or an older GPU) does not offer: the
        // stream-ordered allocator's memory pools, and the virtual memory
        // management API allocators build on. The status code alone says only
        // "not supported".
        {"cuda.memory_pools_unsupported", "async",
         "(cudamallocasync|cumemalloc\\w*async).*(not.supported|\\b801\\b)|"
         "(not.supported|\\b801\\b).*(cudamallocasync|cumemalloc\\w*async)",
         "other", Layer::device, 70,
         "this GPU offers no stream-ordered memory pools (cudaDevAttrMemoryPoolsSupported is 0): fractional "
         "vGPU "
         "profiles and some older GPUs do not; fall back to cudaMalloc (PyTorch: remove "
         "backend:cudaMallocAsync from PYTORCH_CUDA_ALLOC_CONF)",
         "CUDA runtime (cudaErrorNotSupported, 801)"},
        {"cuda.vgpu_unsupported", "vgpu",
         "(not.supported|\\b801\\b).*\\bvgpu\\b|\\bvgpu\\b.*(not.supported|\\b801\\b)", "other",
         Layer::device, 65,
         "a vGPU profile refuses this operation: unified memory, virtual memory management and memory pools "
         "are off on vGPU unless the hypervisor's administrator enables them for the VM (or use a "
         "passthrough GPU)",
         "CUDA driver on NVIDIA vGPU (CUDA_ERROR_NOT_SUPPORTED, 801)"},
        {"cuda.no_capable_device", "no cuda-capable device is detected", "", "driver_missing", Layer::driver,
         85, "the runtime sees no GPU: no driver, no device nodes, or CUDA_VISIBLE_DEVICES hides them",
         "CUDA runtime (cudaErrorNoDevice)", "container_device_not_exposed"},
        {"driver.kernel_module_missing", "kernel module",
         "nvidia kernel module (is )?(missing|not (loaded|found|installed|present|running))|kernel module "
         "nvidia\\S* (is )?(missing|not (loaded|found|installed|present|running))",
         "driver_missing", Layer::driver, 85,
         "the NVIDIA kernel module is not loaded: not built for the running kernel (DKMS), refused by Secure "
         "Boot, or blacklisted",
         "driver installers and desktop tools (nvidia-settings, Ubuntu's gpu-manager)"},
        {"pytorch.no_gpus", "no cuda gpus are available", "", "driver_missing", Layer::driver, 80,
         "the CUDA runtime counts no GPU: no driver, no device nodes, or CUDA_VISIBLE_DEVICES hides them",
         "PyTorch c10/cuda/CUDAFunctions.cpp", "container_device_not_exposed"},
        // libcuda dlopens libnvidia-ptxjitcompiler only when it must JIT PTX,
        // so a driver that runs everything else can lack it.
        {"ptxjit.missing", "ptx jit compiler library not found", "", "missing_or_mismatched_shared_library",
         Layer::driver, 85,
         "the driver's PTX JIT library (libnvidia-ptxjitcompiler.so.1, of the same release as libcuda) is "
         "not "
         "installed or not beside libcuda: distributions package it apart (Debian: "
         "libnvidia-ptxjitcompiler1); "
         "install it; inside a container, the runtime mounts it only for the \"compute\" driver capability "
         "(NVIDIA_DRIVER_CAPABILITIES=compute,utility)",
         "CUDA driver", "container_device_not_exposed"},
        {"pytorch.driver_too_old", "driver on your system is too old", "", "driver_too_old_for_runtime",
         Layer::runtime, 95,
         "the driver supports an older CUDA than the one this build of the framework was compiled for",
         "PyTorch c10/cuda/CUDAFunctions.cpp"},
        {"driver.too_old_words", "too old", "driver (version )?(is )?too old|too old.{0,40}driver",
         "driver_too_old_for_runtime", Layer::runtime, 70,
         "the driver is older than the CUDA runtime the program uses", "various CUDA applications"},
        {"pytorch.found_version", "found version", "found version \\d{4,5}\\b", "driver_too_old_for_runtime",
         Layer::runtime, 60, "the driver's CUDA version (as 11000 = 11.0) is older than required", "PyTorch"},
        {"driver.update_words", "please update your", "please update your (gpu |nvidia |cuda )?driver",
         "driver_too_old_for_runtime", Layer::runtime, 70, "the program asks for a newer driver", "various"},
        {"forward_compat.words", "forward compatibility was attempted", "",
         "forward_compat_on_unsupported_gpu", Layer::driver, 96,
         "a cuda-compat libcuda (newer user-mode driver) is loaded on a GPU that does not support forward "
         "compatibility (GeForce, or a kernel module below the compat floor)",
         "CUDA driver (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)"},
        {"driver.system_not_ready", "system not yet initialized", "", "other", Layer::driver, 90,
         "cuInit refuses until the system is ready: on NVSwitch machines the fabric manager is not running "
         "or does "
         "not match the driver",
         "CUDA driver (CUDA_ERROR_SYSTEM_NOT_READY)"},
        {"fabricmanager.words", "fabric", "fabric ?manager.{0,80}(fail|not|error|mismatch)", "other",
         Layer::driver, 70, "the NVSwitch fabric manager is not running or does not match the driver",
         "nvidia-fabricmanager"},
        {"cuda.init_error_3", "initialization error", "", "other", Layer::driver, 45,
         "cuInit failed (error 3): a driver or UVM problem on this platform, or a fork after CUDA was "
         "initialised",
         "CUDA runtime (cudaErrorInitializationError)"},
        {"pytorch.unknown_error_env",
         "cuda unknown error - this may be due to an incorrectly set up environment", "", "other",
         Layer::driver, 85,
         "cuInit returned 999: most often the nvidia_uvm module is missing or broken (after suspend/resume), "
         "or "
         "/dev/nvidia-uvm is absent",
         "PyTorch c10/cuda/CUDAFunctions.cpp"},
        {"uvm.device_node", "/dev/nvidia-uvm", "", "other", Layer::driver, 50,
         "the UVM device node is missing or unusable: load nvidia_uvm (nvidia-modprobe -u -c 0)",
         "CUDA driver"},
        {"nvml.unknown_error", "failed to initialize nvml: unknown error", "", "other", Layer::driver, 80,
         "NVML could not open the GPU: in a container, systemd rewrote its device cgroup (after systemctl "
         "daemon-reload) and the GPU was taken away",
         "nvidia-smi / NVML", "container_device_not_exposed"},
        {"wsl.symlink", "is not a symbolic link", "/wsl/lib/libcuda\\S* is not a symbolic link", "other",
         Layer::driver, 30, "ldconfig's warning about WSL's driver copies: harmless on its own",
         "ldconfig on WSL"},
    };
    return signals;
}

}  // namespace strata
