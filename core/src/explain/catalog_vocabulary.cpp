// The last resort that keeps `strata explain` from being silent: a line that
// names a part of the CUDA stack together with a failure word gets that part's
// layer (class "other") at the lowest specificity, so every known message
// outranks it. The parts and their layers are strata's own layer model.
#include "explain/signal.h"

namespace strata {

namespace {

// Static storage: Signal holds views.
constexpr std::string_view kFailure =
    "any:error|fail|fatal|abort|exception|cannot|unable|invalid|mismatch|not found|refused|denied|non-zero "
    "exit";
constexpr std::string_view kLayerModel = "strata's layer model (no known message matched)";

}  // namespace

const std::vector<Signal>& vocabulary_signals() {
    static const std::vector<Signal> signals = {
        {"vocabulary.nvml_version_mismatch", "version mismatch",
         "nvml.{0,40}version mismatch|version mismatch.{0,40}nvml", "driver_missing", Layer::driver, 85,
         "NVML and the kernel module are different driver versions (NVML_ERROR_LIB_RM_VERSION_MISMATCH): "
         "reboot "
         "or reload the module after a driver update",
         "NVML (nvmlReturn_t 18)", "container_device_not_exposed"},
        {"vocabulary.nvidia_smi", "nvidia-smi", kFailure, "other", Layer::driver, 12,
         "nvidia-smi failed; the driver layer is where to look", kLayerModel},
        {"vocabulary.nvml", "nvml", kFailure, "other", Layer::driver, 12,
         "an NVML call failed; the driver layer is where to look", kLayerModel},
        {"vocabulary.nvrm", "nvrm", kFailure, "other", Layer::driver, 12,
         "the kernel module reports an error", kLayerModel},
        {"vocabulary.container", "nvidia-container", kFailure, "other", Layer::container, 12,
         "the NVIDIA container runtime failed", kLayerModel},
        {"vocabulary.ptxas", "ptxas", kFailure, "other", Layer::kernel, 12,
         "ptxas (the PTX assembler) failed while making device code; the lines around it say why",
         kLayerModel},
        {"vocabulary.nvcc", "nvcc", kFailure, "other", Layer::kernel, 12,
         "nvcc failed while building device code", kLayerModel},
        {"vocabulary.nvrtc", "nvrtc", kFailure, "other", Layer::kernel, 12,
         "NVRTC failed to compile device code at run time", kLayerModel},
        {"vocabulary.triton", "triton", kFailure, "other", Layer::kernel, 10,
         "Triton failed while making or running a kernel", kLayerModel},
        {"vocabulary.cudnn", "cudnn", kFailure, "other", Layer::library, 11, "a cuDNN call failed",
         kLayerModel},
        {"vocabulary.cublas", "cublas", kFailure, "other", Layer::library, 11, "a cuBLAS call failed",
         kLayerModel},
        {"vocabulary.nccl", "nccl", kFailure, "other", Layer::library, 11, "an NCCL call failed",
         kLayerModel},
        {"vocabulary.cufft", "cufft", kFailure, "other", Layer::library, 10, "a cuFFT call failed",
         kLayerModel},
        {"vocabulary.curand", "curand", kFailure, "other", Layer::library, 10, "a cuRAND call failed",
         kLayerModel},
        {"vocabulary.cusolver", "cusolver", kFailure, "other", Layer::library, 10, "a cuSOLVER call failed",
         kLayerModel},
        {"vocabulary.cusparse", "cusparse", kFailure, "other", Layer::library, 10, "a cuSPARSE call failed",
         kLayerModel},
        {"vocabulary.cuda", "cuda", kFailure, "other", Layer::runtime, 8,
         "a CUDA call failed without a message strata knows; the runtime layer is the first place to look",
         kLayerModel},
    };
    return signals;
}

}  // namespace strata
