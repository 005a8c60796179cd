// Messages of the compilers that make device code at build or run time.
// Sources: nvcc's and ptxas's own diagnostics ("nvcc fatal", "ptxas fatal"),
// NVRTC's option parser, Triton (triton/backends/nvidia/compiler.py,
// runtime/errors.py PTXASError), LLVM's NVPTX back end as used by XLA, and
// llama.cpp's ggml-cuda arch check; and the C/C++ compiler's and linker's
// words when a build cannot find the stack's headers or libraries.
#include "explain/signal.h"

namespace strata {

const std::vector<Signal>& toolchain_signals() {
    static const std::vector<Signal> signals = {
        {"nvcc.unsupported_arch", "unsupported gpu architecture", "", "no_kernel_image_for_gpu_arch",
         Layer::kernel, 95,
         "the CUDA toolkit doing the build is too old to target this architecture: use a newer toolkit or "
         "drop the "
         "architecture from the build",
         "nvcc"},
        {"nvcc.value_not_defined", "is not defined for option",
         "value '(sm|compute)_\\w+' is not defined for option", "no_kernel_image_for_gpu_arch", Layer::kernel,
         95,
         "the compiler (nvcc, or ptxas bundled with Triton) does not know this architecture: it predates the "
         "GPU",
         "nvcc / ptxas"},
        // NVRTC dlopens libnvrtc-builtins.so.<its own major.minor> at its first
        // compile; the library beside it, not the toolkit's, must be found.
        {"nvrtc.builtins_not_loaded", "failed to load builtins", "", "missing_or_mismatched_shared_library",
         Layer::library, 85,
         "NVRTC could not load its libnvrtc-builtins library: put the directory of the libnvrtc in use (the "
         "toolkit's lib64, a conda env's lib, pip's nvidia/cuda_nvrtc/lib) on the library search path, and "
         "keep libnvrtc and libnvrtc-builtins from one release",
         "NVRTC (nvrtcCompileProgram)"},
        {"nvrtc.invalid_arch", "invalid value for --gpu-architecture", "", "no_kernel_image_for_gpu_arch",
         Layer::kernel, 95,
         "the NVRTC the framework uses at run time is too old to target this GPU: install a build for a "
         "newer CUDA",
         "NVRTC (nvrtcCompileProgram option parser)"},
        {"ptx.version_not_target", "does not support target",
         "ptx version [\\d.]+ does not support target|does not support target 'sm_",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 92,
         "the PTX ISA this toolchain emits is too old for the GPU's architecture",
         "LLVM NVPTX back end (XLA)"},
        {"ggml.no_device_code", "has no device code compatible with cuda arch", "",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 95,
         "the binary was compiled without an image for this GPU's architecture", "llama.cpp ggml-cuda"},
        {"kernel_image.words", "kernel image",
         "no kernel image (is )?(available|for)|kernel image not available", "no_kernel_image_for_gpu_arch",
         Layer::kernel, 85, "no SASS for this GPU and no PTX to JIT from", "CUDA runtime"},
        {"kernel.no_device_code", "no device code compatible", "", "no_kernel_image_for_gpu_arch",
         Layer::kernel, 85, "the binary has no device code for this GPU", "various"},
        {"ptxas.unsupported_version", "unsupported .version",
         "ptxas.*unsupported \\.version|unsupported \\.version.*current version",
         "wrong_library_via_LD_LIBRARY_PATH", Layer::library, 85,
         "an older ptxas found first on PATH cannot read PTX from the newer toolkit that made it", "ptxas"},
        // The driver's JIT names its input "ptxas application ptx input" in its
        // error log; a ptxas run from a toolkit names the .ptx file instead.
        {"ptxjit.unsupported_version", "ptxas application ptx input",
         "ptxas application ptx input.{0,80}unsupported \\.version", "ptx_too_new_for_driver", Layer::kernel,
         90,
         "the driver's JIT compiler (not a toolkit's ptxas) cannot read PTX this new: update the driver, or "
         "build SASS for the GPU so nothing is JIT-compiled",
         "CUDA driver JIT error log (cuModuleLoadDataEx, CU_JIT_ERROR_LOG_BUFFER)"},
        {"xla.ptxas_no_cc", "ptxas does not support", "ptxas does not support (cc|compute capability|sm_)",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 90,
         "the toolkit's ptxas predates the GPU's architecture: put a newer CUDA toolkit's ptxas first "
         "(XLA falls back to the driver, which fails where it is older still)",
         "XLA stream_executor/cuda (subprocess_compilation.cc, asm_compiler.cc)"},
        {"triton.ptxas_error", "ptxaserror", "", "no_kernel_image_for_gpu_arch", Layer::kernel, 60,
         "Triton's ptxas failed; when it names the GPU architecture, Triton's bundled ptxas predates the GPU "
         "(point TRITON_PTXAS_PATH at a newer toolkit's ptxas)",
         "Triton runtime/errors.py"},
        // A build that cannot find the stack's headers or libraries.
        {"build.missing_header", "fatal error",
         "fatal error: "
         "'?(cuda\\w*|cudnn\\w*|nccl\\w*|cublas\\w*|cusparse\\w*|cufft\\w*|curand\\w*|cusolver\\w*|"
         "nvrtc\\w*|nvml|nvtx\\w*|cupti\\w*)\\.h'?:? (no such file|file not found)",
         "missing_or_mismatched_shared_library", Layer::library, 80,
         "the build cannot find a CUDA header: install the toolkit's (or the library's) development files, "
         "or "
         "add its include directory",
         "the C/C++ compiler"},
        {"build.missing_libcuda", "find", "(cannot find|unable to find library) -lcuda\\b",
         "missing_or_mismatched_shared_library", Layer::library, 80,
         "the linker finds no unversioned libcuda.so. A build needs no driver: link against the toolkit's "
         "stub (lib64/stubs/libcuda.so). Triton and torch.compile link their launcher at run time: there the "
         "driver's directory needs libcuda.so beside libcuda.so.1 (a symlink), or TRITON_LIBCUDA_PATH",
         "GNU ld, LLVM lld"},
        // Triton's own search (backends/nvidia/driver.py, libcuda_dirs): it
        // lists the libcuda.so.1 copies it did find, which says the driver is
        // there and only the unversioned name is not.
        {"triton.libcuda_symlink", "possible files are located at",
         "possible files are located at .*libcuda\\.so", "missing_or_mismatched_shared_library",
         Layer::driver, 88,
         "Triton found the driver's libcuda.so.1 but links the unversioned libcuda.so, which driver-only "
         "installs (containers, WSL) leave out: link libcuda.so to one of the files it lists, or set "
         "TRITON_LIBCUDA_PATH to its directory",
         "Triton backends/nvidia/driver.py"},
        {"triton.libcuda_not_found", "libcuda.so cannot found", "", "driver_missing", Layer::driver, 70,
         "Triton found no libcuda in the loader's cache: no driver is installed (or, in a container, none "
         "was given to it), or the cache is stale (run ldconfig)",
         "Triton backends/nvidia/driver.py"},
        {"build.missing_cuda_library", "find",
         "(cannot find|unable to find library) "
         "-l(cudart|cublas|cudnn|nccl|cufft|curand|cusolver|cusparse|nvrtc|nvjitlink|cupti|nvtx)\\w*",
         "missing_or_mismatched_shared_library", Layer::library, 78,
         "the linker cannot find a CUDA library: install its development files or add its directory "
         "(-L, CMAKE_PREFIX_PATH)",
         "GNU ld, LLVM lld"},
        // Libraries that check the GPU's architecture themselves and refuse it:
        // FlashAttention ("only supports Ampere GPUs or newer"), vLLM ("only
        // supported on GPUs with compute capability of at least 8.0"), xformers
        // ("requires device with capability > (8, 0) but your GPU has …").
        {"library.arch_requirement", "newer",
         "only supports? (volta|turing|ampere|ada|hopper|blackwell)\\b.{0,20}or newer",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 85,
         "this library has no kernels for the GPU's architecture: use a GPU it supports, or a build or "
         "backend without that requirement",
         "FlashAttention and similar libraries"},
        {"library.capability_requirement", "capability",
         "(requires?|only supported on|supported only (on|with)|only "
         "supports?|needs?)[^.]{0,60}capabilit(y|ies)"
         "\\s*(of\\s*)?(at least|>=|>|≥)\\s*\\(?\\d|capability \\d+\\.\\d+ or (up|higher|newer|above|later)",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 82,
         "the code needs a newer GPU architecture (compute capability) than this GPU's",
         "vLLM, xformers and "
         "similar libraries"},
        // LLVM's NVPTX back end (Triton, XLA, Numba's NVVM) warning that it
        // does not know the GPU's architecture.
        {"llvm.unknown_processor", "is not a recognized processor for this target",
         "'sm_\\w+' is not a recognized processor for this target", "no_kernel_image_for_gpu_arch",
         Layer::kernel, 88,
         "the LLVM inside the compiler (Triton, XLA) predates this GPU's architecture: use a release that "
         "knows it",
         "LLVM NVPTX back end"},
        {"triton.gpu_too_old", "too old to be supported by the triton", "", "no_kernel_image_for_gpu_arch",
         Layer::kernel, 90, "Triton's compiler does not support this GPU's architecture (CC below 7.0)",
         "Triton (torch._inductor / triton backends)"},
        // TensorRT engines are compiled for one GPU architecture and one
        // TensorRT release.
        {"tensorrt.engine_other_device", "engine plan file is generated on an incompatible device", "",
         "no_kernel_image_for_gpu_arch", Layer::kernel, 90,
         "the TensorRT engine was built for another GPU architecture: rebuild it on (or for) this GPU",
         "TensorRT runtime"},
        {"tensorrt.engine_other_version", "engine plan file is not compatible with this version of tensorrt",
         "", "missing_or_mismatched_shared_library", Layer::library, 88,
         "the TensorRT engine was built by another TensorRT release than the one loaded: rebuild it, or load "
         "the TensorRT it was built with",
         "TensorRT runtime"},
        // Renderers that ship per-architecture kernel binaries (Blender Cycles).
        {"renderer.kernel_for_cc_missing", "compute capability",
         "kernel for this graphics card compute capability.{0,20}not found", "no_kernel_image_for_gpu_arch",
         Layer::kernel, 90, "the application ships no kernel binary for this GPU's compute capability",
         "Blender Cycles"},
        {"nvcc.gcc_version", "unsupported gnu version", "", "other", Layer::host, 80,
         "the host compiler is newer than this CUDA toolkit supports", "nvcc host_config.h"},
        {"ptx.toolchain_words", "ptx was compiled with an unsupported toolchain", "",
         "ptx_too_new_for_driver", Layer::kernel, 95,
         "the PTX comes from a newer toolkit than the driver's JIT understands: update the driver",
         "CUDA driver (CUDA_ERROR_UNSUPPORTED_PTX_VERSION)"},
    };
    return signals;
}

}  // namespace strata
