// NVML's return codes. The toolkit ships no nvml.h, so names and numbers come
// from NVIDIA's NVML API Reference (nvmlReturn_t, "Error reporting") and the
// printed texts from nvmlErrorString as NVIDIA's Python binding
// (nvidia-ml-py, pynvml.py) spells them; nvidia-smi prints
// "Failed to initialize NVML: <text>".
#include "explain/status_codes.h"

namespace strata {

namespace {

constexpr std::string_view kSource = "NVML API Reference, nvmlReturn_t; nvidia-ml-py nvmlErrorString texts";

StatusCode nvml(std::string_view name, int64_t number, std::string_view description, std::string_view printed,
                std::string_view failure_class, Layer layer) {
    return {StatusFamily::nvml, "nvmlReturn_t", name,   number, description, printed,
            failure_class,      layer,          kSource};
}

}  // namespace

const std::vector<StatusCode>& nvml_return_codes() {
    static const std::vector<StatusCode> codes = {
        nvml("NVML_SUCCESS", 0, "The operation was successful.", "Success", "success", Layer::driver),
        nvml("NVML_ERROR_UNINITIALIZED", 1, "NVML was not first initialized with nvmlInit().",
             "Uninitialized", "other", Layer::driver),
        nvml("NVML_ERROR_INVALID_ARGUMENT", 2, "A supplied argument is invalid.", "Invalid Argument", "other",
             Layer::driver),
        nvml("NVML_ERROR_NOT_SUPPORTED", 3, "The requested operation is not available on the target device.",
             "Not Supported", "other", Layer::device),
        nvml("NVML_ERROR_NO_PERMISSION", 4, "The current user does not have permission for the operation.",
             "Insufficient Permissions", "other", Layer::host),
        nvml("NVML_ERROR_ALREADY_INITIALIZED", 5, "Deprecated: multiple initializations are now allowed.",
             "Already Initialized", "other", Layer::driver),
        nvml("NVML_ERROR_NOT_FOUND", 6, "A query to find an object was unsuccessful.", "Not Found", "other",
             Layer::device),
        nvml("NVML_ERROR_INSUFFICIENT_SIZE", 7, "An input argument is not large enough.", "Insufficient Size",
             "other", Layer::driver),
        nvml("NVML_ERROR_INSUFFICIENT_POWER", 8,
             "A device's external power cables are not properly attached.", "Insufficient External Power",
             "hardware_or_xid_fault", Layer::device),
        nvml("NVML_ERROR_DRIVER_NOT_LOADED", 9, "NVIDIA driver is not loaded.", "Driver Not Loaded",
             "driver_missing", Layer::driver),
        nvml("NVML_ERROR_TIMEOUT", 10, "User provided timeout passed.", "Timeout", "other", Layer::driver),
        nvml("NVML_ERROR_IRQ_ISSUE", 11, "NVIDIA Kernel detected an interrupt issue with a GPU.",
             "Interrupt Request Issue", "hardware_or_xid_fault", Layer::device),
        nvml("NVML_ERROR_LIBRARY_NOT_FOUND", 12, "NVML Shared Library couldn't be found or loaded.",
             "NVML Shared Library Not Found", "driver_missing", Layer::driver),
        nvml("NVML_ERROR_FUNCTION_NOT_FOUND", 13, "Local version of NVML doesn't implement this function.",
             "Function Not Found", "driver_too_old_for_runtime", Layer::driver),
        nvml("NVML_ERROR_CORRUPTED_INFOROM", 14, "infoROM is corrupted.", "Corrupted infoROM",
             "hardware_or_xid_fault", Layer::device),
        nvml("NVML_ERROR_GPU_IS_LOST", 15,
             "The GPU has fallen off the bus or has otherwise become inaccessible.", "GPU is lost",
             "hardware_or_xid_fault", Layer::device),
        nvml("NVML_ERROR_RESET_REQUIRED", 16, "The GPU requires a reset before it can be used again.",
             "GPU requires restart", "hardware_or_xid_fault", Layer::device),
        nvml("NVML_ERROR_OPERATING_SYSTEM", 17,
             "The GPU control device has been blocked by the operating system/cgroups.",
             "The operating system has blocked the request.", "other", Layer::host),
        nvml("NVML_ERROR_LIB_RM_VERSION_MISMATCH", 18, "RM detects a driver/library version mismatch.",
             "RM has detected an NVML/RM version mismatch.", "driver_missing", Layer::driver),
        nvml("NVML_ERROR_IN_USE", 19, "An operation cannot be performed because the GPU is currently in use.",
             "The GPU is currently in use", "other", Layer::device),
        nvml("NVML_ERROR_MEMORY", 20, "Insufficient memory.", "Insufficient Memory", "other", Layer::host),
        nvml("NVML_ERROR_NO_DATA", 21, "No data.", "No data", "other", Layer::driver),
        nvml("NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", 22,
             "The requested vGPU operation is not available because ECC is enabled.", "", "other",
             Layer::device),
        nvml("NVML_ERROR_INSUFFICIENT_RESOURCES", 23, "Ran out of critical resources, other than memory.", "",
             "other", Layer::driver),
        nvml("NVML_ERROR_FREQ_NOT_SUPPORTED", 24, "The requested frequency is not supported.", "", "other",
             Layer::device),
        nvml("NVML_ERROR_ARGUMENT_VERSION_MISMATCH", 25, "The provided version is invalid/unsupported.", "",
             "driver_too_old_for_runtime", Layer::driver),
        nvml("NVML_ERROR_DEPRECATED", 26, "The requested functionality has been deprecated.", "", "other",
             Layer::driver),
        nvml("NVML_ERROR_NOT_READY", 27, "The system is not ready for the request.", "", "other",
             Layer::driver),
        nvml("NVML_ERROR_GPU_NOT_FOUND", 28, "No GPUs were found.", "", "driver_missing", Layer::driver),
        nvml("NVML_ERROR_INVALID_STATE", 29, "Resource not in correct state to perform requested operation.",
             "", "other", Layer::driver),
        nvml("NVML_ERROR_UNKNOWN", 999, "An internal driver error occurred.", "Unknown Error", "other",
             Layer::driver),
    };
    return codes;
}

}  // namespace strata
