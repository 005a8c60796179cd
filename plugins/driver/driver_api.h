// libcuda.so.1, opened with dlopen and never linked, so the plugin loads and
// explains itself on a machine without a driver. Prototypes come from the
// toolkit's cuda.h; the versioned names (cuMemAlloc_v2, ...) follow its macros.
#pragma once

#include <cuda.h>

#include <string>
#include <vector>

namespace strata::driver {

struct DriverApi {
    void* handle = nullptr;
    std::string path;                  // the file loaded, symlinks resolved
    std::string load_error;            // dlerror text when the library did not load
    std::vector<std::string> missing;  // entry points this libcuda lacks

    decltype(&::cuInit) init = nullptr;
    decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
    decltype(&::cuGetErrorName) get_error_name = nullptr;
    decltype(&::cuGetErrorString) get_error_string = nullptr;
    decltype(&::cuDeviceGetCount) device_get_count = nullptr;
    decltype(&::cuDeviceGet) device_get = nullptr;
    decltype(&::cuDeviceGetName) device_get_name = nullptr;
    decltype(&::cuDeviceGetUuid) device_get_uuid = nullptr;
    decltype(&::cuDeviceGetPCIBusId) device_get_pci_bus_id = nullptr;
    decltype(&::cuDeviceTotalMem) device_total_mem = nullptr;
    decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
    decltype(&::cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
    decltype(&::cuDevicePrimaryCtxRelease) primary_ctx_release = nullptr;
    decltype(&::cuCtxSetCurrent) ctx_set_current = nullptr;
    decltype(&::cuCtxSynchronize) ctx_synchronize = nullptr;
    decltype(&::cuModuleLoadDataEx) module_load_data_ex = nullptr;
    decltype(&::cuModuleUnload) module_unload = nullptr;
    decltype(&::cuModuleGetFunction) module_get_function = nullptr;
    decltype(&::cuMemAlloc) mem_alloc = nullptr;
    decltype(&::cuMemFree) mem_free = nullptr;
    decltype(&::cuMemcpyHtoD) memcpy_htod = nullptr;
    decltype(&::cuMemcpyDtoH) memcpy_dtoh = nullptr;
    decltype(&::cuLaunchKernel) launch_kernel = nullptr;

    bool loaded() const { return handle != nullptr; }
    // Everything the self-test needs (the probe needs only init and version).
    bool can_launch() const;
    // "CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected".
    std::string describe(CUresult result) const;
};

// Opens libcuda.so.1 the way the CUDA runtime does (by soname, through the
// loader's search path). Never fails: problems are recorded in the result.
DriverApi open_driver_api();

}  // namespace strata::driver
