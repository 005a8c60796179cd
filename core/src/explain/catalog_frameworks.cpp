// Messages the frameworks print when the CUDA stack under them is wrong.
// Sources: PyTorch (torch/cuda/__init__.py, c10/cuda, torch/__init__.py's
// preload, torch/backends/cudnn), TensorFlow and XLA (tsl dso_loader,
// stream_executor/cuda/cuda_dnn.cc, gpu_device.cc), JAX (jax/_src/xla_bridge.py
// _check_cuda_versions, jaxlib plugin_support.py), CuPy (cupy/_environment.py),
// ONNX Runtime (onnxruntime/python/onnxruntime_pybind_state, provider bridge),
// CTranslate2/cuDNN 8's loader, Kokkos (core/src/Cuda/Kokkos_Cuda_Instance.cpp,
// the layer under LAMMPS and other HPC codes), and gdb's backtrace of a
// crash. NCCL's own messages are in catalog_nccl.cpp.
#include "explain/signal.h"

namespace strata {

const std::vector<Signal>& framework_signals() {
    static const std::vector<Signal> signals = {
        // Kokkos runs a kernel at start-up to learn the architecture it was
        // built for; with no kernel for the GPU it fails and reports a
        // mismatch (or "compiled for compute capability 0.0").
        {"kokkos.architecture_mismatch", "kokkos::cuda::initialize error",
         "any:mismatch of architecture|compiled for compute capability", "no_kernel_image_for_gpu_arch",
         Layer::kernel, 92,
         "the Kokkos build (Kokkos_ARCH_*) has no kernels for this GPU's architecture: rebuild with the "
         "GPU's architecture (or let Kokkos detect it on the GPU node)",
         "Kokkos core/src/Cuda/Kokkos_Cuda_Instance.cpp"},
        // PyTorch
        {"pytorch.capability_not_compatible", "is not compatible with the current pytorch installation", "",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 96,
         "this PyTorch build has no kernels for the GPU's architecture: install a build whose arch list "
         "includes it",
         "PyTorch torch/cuda/__init__.py (_check_capability)"},
        {"pytorch.gpu_too_old", "no longer supports this gpu because it is too old", "",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 95,
         "the GPU is older than the oldest architecture this PyTorch build supports",
         "PyTorch torch/cuda/__init__.py"},
        // torch/csrc/DataLoader.cpp and torch/utils/data/dataloader.py: a
        // worker's tensors live in /dev/shm, which containers keep at 64 MB.
        {"pytorch.dataloader_shared_memory", "shared memory",
         "insufficient shared memory|out of shared memory", "other", Layer::container, 85,
         "PyTorch DataLoader workers ran out of /dev/shm: run the container with --ipc=host or "
         "--shm-size=1g (Kubernetes: an emptyDir with medium: Memory at /dev/shm), or use fewer workers",
         "PyTorch torch/csrc/DataLoader.cpp (bus error handler)"},
        {"pytorch.bundled_cudnn", "pytorch already comes bundled with cudnn", "",
         "wrong_library_via_LD_LIBRARY_PATH", Layer::library, 95,
         "another cuDNN (from LD_LIBRARY_PATH or the system) is loaded instead of the one PyTorch ships",
         "PyTorch torch/backends/cudnn/__init__.py"},
        {"pytorch.ld_library_path_cudnn", "ld_library_path contains incompatible version", "",
         "wrong_library_via_LD_LIBRARY_PATH", Layer::library, 95,
         "a cuDNN directory on LD_LIBRARY_PATH is loaded instead of the cuDNN PyTorch ships: take it off "
         "LD_LIBRARY_PATH",
         "PyTorch torch/backends/cudnn/__init__.py"},
        {"pytorch.cudnn_incompatible", "cudnn version incompatib", "", "nccl_or_cudnn_version_mismatch",
         Layer::library, 85, "the cuDNN that was loaded is not the one PyTorch was built against",
         "PyTorch torch/backends/cudnn/__init__.py"},
        {"pytorch.compiled_against", "compiled", "compiled\\s+against .* but found runtime version",
         "wrong_library_via_LD_LIBRARY_PATH", Layer::library, 80,
         "a library of another version than the build's is found first on the search path", "PyTorch"},
        {"pytorch.preload_not_found", "not found in the system path", "",
         "missing_or_mismatched_shared_library", Layer::library, 85,
         "PyTorch's preloader found none of the nvidia-* wheels' libraries: install the CUDA dependencies of "
         "this "
         "torch build",
         "PyTorch torch/__init__.py (_preload_cuda_deps)"},
        // Extensions built with a CUDA toolkit other than the one PyTorch was
        // built with: torch.utils.cpp_extension, DeepSpeed's op builder, Apex.
        {"extension.toolkit_mismatch", "compile",
         "mismatches the version that was used to compile pytorch|does not match the version torch was "
         "compiled "
         "with|compiled with a version of cuda that does not match",
         "missing_or_mismatched_shared_library", Layer::library, 85,
         "the CUDA toolkit (nvcc) building the extension is another release than the one PyTorch was built "
         "with: use a toolkit of PyTorch's CUDA version (or a PyTorch built for yours)",
         "PyTorch torch/utils/cpp_extension.py, DeepSpeed op_builder, NVIDIA Apex setup.py"},
        // Libraries whose compiled parts are built against one PyTorch release.
        {"extension.built_for_other_torch", "built for",
         "can't load c\\+\\+/cuda extensions.{0,40}built for|xformers was built for",
         "missing_or_mismatched_shared_library", Layer::library, 85,
         "the extension's compiled parts were built for another PyTorch (or CUDA) release: install the build "
         "that matches this PyTorch",
         "xFormers"},
        {"torchvision.custom_ops", "couldn't load custom c++ ops", "", "missing_or_mismatched_shared_library",
         Layer::library, 80,
         "torchvision's compiled operators do not fit this PyTorch: install matching versions",
         "torchvision extension.py"},
        {"framework.cuda_major_differs", "compiled with different cuda",
         "compiled with different cuda (major )?versions", "missing_or_mismatched_shared_library",
         Layer::library, 88,
         "two packages that must share a CUDA major were built for different ones: reinstall the one that "
         "does not match PyTorch's",
         "torchvision extension.py"},
        {"jax.no_cuda_devices", "no supported devices found for platform cuda", "", "driver_missing",
         Layer::driver, 80,
         "XLA's CUDA client found no usable GPU: no driver, no device nodes, or CUDA_VISIBLE_DEVICES hides "
         "them",
         "XLA PJRT (se_gpu_pjrt_client)", "container_device_not_exposed"},
        {"jax.cpu_only_jaxlib", "a cuda-enabled jaxlib is not installed", "", "other", Layer::framework, 80,
         "a CPU-only JAX is installed: install jax[cuda12] or jax[cuda13]", "JAX jax/_src/xla_bridge.py"},
        {"bitsandbytes.no_gpu_build", "compiled without gpu support", "", "other", Layer::framework, 75,
         "a CPU-only build of the library is installed: install its CUDA build",
         "bitsandbytes cextension.py"},
        // c10/cuda/CUDAFunctions.cpp checks a device index against the count
        // it took when CUDA started: an index past it comes from several MIG
        // instances made visible (a process enumerates one), or from
        // CUDA_VISIBLE_DEVICES changed after CUDA started.
        {"pytorch.device_index_assert", "device < num_gpus", "", "other", Layer::runtime, 75,
         "PyTorch was asked for a GPU index its device count does not have: with MIG, a process sees only "
         "one instance (set CUDA_VISIBLE_DEVICES to one MIG UUID from nvidia-smi -L); otherwise "
         "CUDA_VISIBLE_DEVICES was changed after CUDA had started, or the index is past the GPUs visible",
         "PyTorch c10/cuda/CUDAFunctions.cpp"},
        // MATLAB's Parallel Computing Toolbox (gpuDevice, gpuArray) in its own words.
        {"matlab.driver_too_old", "the cuda driver was found, but it is too old", "",
         "driver_too_old_for_runtime", Layer::driver, 92,
         "the driver supports an older CUDA than this MATLAB release needs: install a newer driver",
         "MATLAB Parallel Computing Toolbox"},
        {"matlab.driver_not_loaded", "the cuda driver could not be loaded", "", "driver_missing",
         Layer::driver, 85,
         "MATLAB cannot load the NVIDIA driver's library (libcuda.so.1, nvcuda.dll): no NVIDIA GPU or driver "
         "on this machine, or the driver is not installed",
         "MATLAB Parallel Computing Toolbox", "container_device_not_exposed"},
        {"pytorch.not_compiled_with_cuda", "torch not compiled with cuda enabled", "", "other",
         Layer::framework, 80, "a CPU-only build of PyTorch is installed", "PyTorch torch/cuda/__init__.py"},
        // Older frameworks compare the cuDNN they were built with to the one
        // loaded, each in its own words: Caffe2 common_cudnn.h ("cuDNN compiled
        // (7102) and runtime (7005) versions mismatch"), PyTorch before 1.8
        // ("cuDNN version mismatch: PyTorch was compiled against 7102 but
        // linked against 7605"), MXNet src/base.cc ("cuDNN lib mismatch:
        // linked-against version 8200 != compiled-against version 8100").
        {"framework.cudnn_built_vs_loaded", "cudnn",
         "cudnn\\b.{0,60}(version|compiled|linked|runtime|lib)\\w*.{0,60}(mismatch|incompatib|!=)|cudnn\\b.{"
         "0,"
         "30}(mismatch|incompatib)\\w*.{0,60}(version|compiled|linked|runtime)",
         "nccl_or_cudnn_version_mismatch", Layer::library, 84,
         "the cuDNN loaded at run time is another release than the one the framework was built with: install "
         "the cuDNN it was built against, or a framework build for the cuDNN you have",
         "Caffe2 common_cudnn.h, PyTorch torch/backends/cudnn (before 1.8), MXNet src/base.cc"},
        // TensorFlow / XLA
        {"tensorflow.cudnn_loaded_vs_compiled", "loaded runtime cudnn library", "",
         "nccl_or_cudnn_version_mismatch", Layer::library, 95,
         "the cuDNN loaded at run time is older (or of another major) than the one TensorFlow/XLA was built "
         "with",
         "XLA stream_executor/cuda/cuda_dnn.cc"},
        // XLA's summary when it cannot create a cuDNN handle. The line above
        // it says why, and outranks it when pasted: a cuDNN older than the
        // build ("Loaded runtime CuDNN library"), or CUDNN_STATUS_INTERNAL_ERROR
        // beside "Memory usage: … free" (the GPU's memory taken).
        {"xla.dnn_init_failed", "dnn library initialization failed", "", "nccl_or_cudnn_version_mismatch",
         Layer::library, 60,
         "XLA (JAX, TensorFlow) could not start cuDNN; the error just above this line says why: most often "
         "a cuDNN older than the one it was built with (\"Loaded runtime CuDNN library\"), else the GPU's "
         "memory already taken (another process, or XLA's preallocation: XLA_PYTHON_CLIENT_MEM_FRACTION), or "
         "a driver older than this cuDNN needs",
         "XLA stream_executor/cuda/cuda_dnn.cc"},
        {"tensorflow.not_built_for_cc",
         "was not built with cuda kernel binaries compatible with compute capability", "",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 95,
         "TensorFlow has no SASS for this GPU and must JIT from PTX (slow, and fails where the PTX is too "
         "new or absent)",
         "TensorFlow core/common_runtime/gpu/gpu_device.cc"},
        {"tensorflow.min_capability", "the minimum required cuda capability is", "",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 90,
         "the GPU is older than this TensorFlow build supports", "TensorFlow gpu_device.cc"},
        {"tensorflow.dso_load", "could not load dynamic library", "", "missing_or_mismatched_shared_library",
         Layer::library, 70, "TensorFlow could not dlopen a CUDA library it needs",
         "TensorFlow tsl/platform/default/dso_loader.cc"},
        {"tensorflow.cannot_dlopen", "cannot dlopen some gpu libraries", "",
         "missing_or_mismatched_shared_library", Layer::library, 60,
         "some CUDA libraries TensorFlow needs are missing", "TensorFlow gpu_device.cc"},
        {"tensorflow.dnn_not_found", "dnn library is not found", "", "missing_or_mismatched_shared_library",
         Layer::library, 75, "cuDNN is missing or could not be initialised", "TensorFlow/XLA"},
        // JAX
        {"jax.found_cudnn_version", "but jax was built against version",
         "found cudnn version \\d+, but jax was built against", "nccl_or_cudnn_version_mismatch",
         Layer::library, 96, "the cuDNN installed is older than the one jaxlib was built against",
         "JAX jax/_src/xla_bridge.py"},
        {"jax.found_library_version", "but jax was built against version", "",
         "missing_or_mismatched_shared_library", Layer::library, 92,
         "a CUDA library installed is older than the one jaxlib was built against (often a system copy found "
         "first)",
         "JAX jax/_src/xla_bridge.py (_check_cuda_versions)"},
        // The CUDA plugins' own check (jax_plugins/xla_cuda12, xla_cuda13) words
        // it "Outdated cuDNN installation found." with the versions below it.
        {"jax.outdated_cudnn", "installation found", "outdated cudnn installation found",
         "nccl_or_cudnn_version_mismatch", Layer::library, 96,
         "the cuDNN installed is older than the one JAX's CUDA plugin was built against: install the "
         "cuDNN it names (nvidia-cudnn-cu12/cu13), or a JAX built for the older one",
         "JAX jax_plugins/xla_cuda*/__init__.py (_check_cuda_versions)"},
        {"jax.outdated_library", "installation found",
         "outdated (cuda|cublas|cufft|cusparse|cusolver|cupti|nvjitlink|nccl) installation found",
         "missing_or_mismatched_shared_library", Layer::library, 92,
         "a CUDA library found is older than the one JAX's CUDA plugin was built against (often a system "
         "copy loaded before the pip wheel)",
         "JAX jax_plugins/xla_cuda*/__init__.py (_check_cuda_versions)"},
        {"jax.cudnn_9_10_0", "9.10.0 had a binary backward-compatibility issue", "",
         "nccl_or_cudnn_version_mismatch", Layer::library, 90,
         "cuDNN 9.10.0 reordered enum values; JAX refuses it: install cuDNN 9.10.1 or newer",
         "JAX jax_plugins/xla_cuda*/__init__.py"},
        // The names _check_cuda_versions passes ("Unable to load cuDNN. Is it
        // installed?"), so that other programs' "Unable to load cudart" and
        // "unable to load cuda driver library" are not read as JAX's.
        {"jax.unable_to_load", "unable to load ",
         "unable to load (cuda|cudnn|cufft|cusolver|cupti|cublas|cusparse|nccl|nvrtc|nvjitlink)(\\.|,|\"|'|$|"
         "\\s+is it installed)",
         "missing_or_mismatched_shared_library", Layer::library, 85,
         "a CUDA library JAX needs cannot be loaded (not installed, or not found)",
         "JAX jax/_src/xla_bridge.py"},
        {"jax.plugin_incompatible", "is not compatible with jaxlib", "", "other", Layer::framework, 90,
         "jaxlib and its CUDA plugin come from different releases: install matching versions",
         "jaxlib plugin_support.py"},
        {"jax.pjrt_api", "pjrt", "PJRT (plugin )?API version|Mismatched PJRT", "other", Layer::framework, 85,
         "the framework and its PJRT plugin come from different releases", "JAX / XLA PJRT"},
        {"jax.jaxlib_newer", "is newer than and incompatible with", "", "other", Layer::framework, 85,
         "jax and jaxlib come from different releases", "JAX jax/version.py"},
        {"jax.backend_failed", "cuda backend failed to initialize", "", "other", Layer::framework, 30,
         "JAX fell back to the CPU because the CUDA backend could not start (the reason follows on the same "
         "line)",
         "JAX jax/_src/xla_bridge.py"},
        // ONNX Runtime's provider could not load its CUDA and cuDNN.
        {"onnxruntime.provider_requirements", "failed to create cudaexecutionprovider", "",
         "missing_or_mismatched_shared_library", Layer::library, 80,
         "ONNX Runtime could not load its CUDA provider's libraries (the CUDA and cuDNN majors it names): "
         "install them, or preload them with onnxruntime.preload_dlls()",
         "ONNX Runtime onnxruntime_pybind_state.cc"},
        // A toolkit the framework looks for by path (CuPy's CUDA_PATH).
        {"cuda_path.not_found", "could not find", "could not find (a )?cuda (installation|toolkit)",
         "missing_or_mismatched_shared_library", Layer::library, 70,
         "no CUDA toolkit where the program looks: install one or set CUDA_PATH to it",
         "CuPy _environment.py and others"},
        {"cuda_path.not_detected", "cuda path could not be detected", "",
         "missing_or_mismatched_shared_library", Layer::library, 70,
         "no CUDA toolkit where the program looks: install one or set CUDA_PATH to it",
         "CuPy _environment.py"},
        // cuDNN 8 on Windows loads zlib by this name and stops without it.
        {"cudnn8.zlibwapi", "zlibwapi.dll", "could not locate zlibwapi\\.dll|zlibwapi\\.dll.{0,80}not found",
         "missing_or_mismatched_shared_library", Layer::library, 85,
         "cuDNN 8 on Windows needs zlibwapi.dll on PATH: install it beside cuDNN's DLLs",
         "cuDNN 8 (Windows)"},
        // bitsandbytes' setup check (cuda_setup/main.py)
        {"bitsandbytes.setup_failed", "cuda setup failed despite gpu being available", "",
         "missing_or_mismatched_shared_library", Layer::library, 85,
         "bitsandbytes found no binary for this CUDA version or could not load libcudart: install a "
         "bitsandbytes build for this CUDA, or put the runtime on the loader's path",
         "bitsandbytes cuda_setup/main.py"},
        // CTranslate2 (faster-whisper) loads cuBLAS and cuDNN itself.
        {"ctranslate2.library_not_initialized", "is not initialized",
         "library (cublas\\w*|cudnn\\w*|nccl) is not initialized", "missing_or_mismatched_shared_library",
         Layer::library, 80,
         "CTranslate2 could not load this CUDA library (not installed, or another major version): install "
         "the "
         "one its build expects",
         "CTranslate2"},
        // Numba
        {"numba.nvvm_support", "nvvmsupporterror", "", "missing_or_mismatched_shared_library", Layer::library,
         85,
         "numba cannot use the libNVVM it found: missing, or from a CUDA toolkit this numba release does not "
         "know (install a numba and toolkit that fit each other)",
         "numba numba/cuda/cudadrv/nvvm.py (NvvmSupportError)"},
        // CuPy
        {"cupy.failed_to_load", "cupy failed to load", "", "missing_or_mismatched_shared_library",
         Layer::library, 85,
         "a CUDA library CuPy needs cannot be loaded: install the matching nvidia-* wheels or CUDA toolkit",
         "CuPy cupy/_environment.py"},
        {"cupy.multiple_packages", "multiple cupy packages", "", "other", Layer::framework, 80,
         "several CuPy builds are installed at once: keep the one for this CUDA major",
         "CuPy cupy/__init__.py"},
        // ONNX Runtime
        {"onnxruntime.provider_load", "failed to load library libonnxruntime_providers_cuda", "",
         "missing_or_mismatched_shared_library", Layer::library, 75,
         "ONNX Runtime's CUDA provider cannot load a CUDA library it links (its CUDA and cuDNN majors must "
         "match the "
         "installed ones)",
         "ONNX Runtime provider bridge (provider_bridge_ort.cc)"},
        {"onnxruntime.cuda_path", "cuda wasn't able to be loaded", "", "missing_or_mismatched_shared_library",
         Layer::library, 75, "ONNX Runtime could not load CUDA from CUDA_PATH",
         "ONNX Runtime onnxruntime_pybind_state.cc"},
        // cuDNN 8's sub-library loader (CTranslate2, faster-whisper, PyTorch)
        {"cudnn8.sublibrary", "please make sure lib",
         "please make sure libcudnn\\w*\\.so\\S* is in your library path",
         "missing_or_mismatched_shared_library", Layer::library, 70,
         "cuDNN 8 could not dlopen one of its sub-libraries: install cuDNN 8 for this CUDA major or put its "
         "lib "
         "directory on the loader's path",
         "cuDNN 8 (cudnnOpsInfer loader)"},
        // The cuDNN frontend's loader finds two CUDA runtime majors.
        {"nccl.multiple_libcudart", "multiple libcudart libraries found", "",
         "missing_or_mismatched_shared_library", Layer::library, 85,
         "two CUDA runtime majors are visible; the loader refuses to guess",
         "cuDNN frontend dynamic loading"},
        // A debugger's backtrace with a frame inside an NVIDIA math library
        // (gdb puts "from <library>" on a line of its own after a long name):
        // those libraries rarely crash on their own; two builds of them mixed
        // in one process (another copy taken from LD_LIBRARY_PATH or the
        // system before the one the program ships) do. NCCL and the driver
        // are left out: their frames are also what a hung process shows.
        {"gdb.frame_in_cuda_library", " from /",
         "^\\s*(#\\d+\\s+0x[0-9a-f]+ in .* )?from \\S*/lib(cudnn|cublas|cufft|cusparse|cusolver|curand|nvrtc|"
         "nvjitlink)\\w*\\.so",
         "wrong_library_via_LD_LIBRARY_PATH", Layer::library, 30,
         "the process crashed inside a CUDA library: most often two builds of the CUDA libraries are mixed "
         "in one process (see which copies load: strata frameworks, or LD_DEBUG=libs)",
         "gdb backtrace (bt)"},
        // LD_DEBUG output
        {"ld_debug.trying_file", "trying file=", "trying file=.*(LD_LIBRARY_PATH|conda|/usr/local/cuda)",
         "wrong_library_via_LD_LIBRARY_PATH", Layer::library, 65,
         "the loader's search (LD_DEBUG=libs) reaches a copy through LD_LIBRARY_PATH or another installation",
         "glibc LD_DEBUG=libs"},
        {"ld_debug.search_path", "(ld_library_path)", "", "wrong_library_via_LD_LIBRARY_PATH", Layer::library,
         60, "the loader searched LD_LIBRARY_PATH for this library", "glibc LD_DEBUG=libs"},
    };
    return signals;
}

}  // namespace strata
