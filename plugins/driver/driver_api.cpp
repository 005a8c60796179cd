#include "driver_api.h"

#include <dlfcn.h>

#include "cuda_errors.h"
#include "reporter.h"

namespace strata::driver {

namespace {

// Resolves `macro_name` after cuda.h's renaming: STRATA_SYMBOL(cuMemAlloc) is
// "cuMemAlloc_v2".
#define STRATA_SYMBOL_TEXT(name) #name
#define STRATA_SYMBOL(name) STRATA_SYMBOL_TEXT(name)

template <typename Function>
void resolve(DriverApi& api, Function& out, const char* name) {
    out = reinterpret_cast<Function>(dlsym(api.handle, name));
    if (!out) api.missing.push_back(name);
}

}  // namespace

bool DriverApi::can_launch() const {
    return init && device_get_count && device_get && device_get_attribute && primary_ctx_retain &&
           primary_ctx_release && ctx_set_current && ctx_synchronize && module_load_data_ex &&
           module_unload && module_get_function && mem_alloc && mem_free && memcpy_htod && memcpy_dtoh &&
           launch_kernel;
}

std::string DriverApi::describe(CUresult result) const {
    const char* name = nullptr;
    const char* text = nullptr;
    if (get_error_name) get_error_name(result, &name);
    if (get_error_string) get_error_string(result, &text);
    // An old or stub driver may not know a newer code: fall back to our table.
    if (!name) name = cuda_error_name(result);
    if (!text) text = cuda_error_meaning(result);
    return std::string(name) + " (" + std::to_string(static_cast<int>(result)) + "): " + text;
}

DriverApi open_driver_api() {
    DriverApi api;
    dlerror();
    api.handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api.handle) {
        const char* error = dlerror();
        api.load_error = error ? error : "libcuda.so.1: cannot be loaded";
        return api;
    }
    api.path = plugin::loaded_path(api.handle);
#define STRATA_RESOLVE(field, name) resolve(api, api.field, STRATA_SYMBOL(name))
    STRATA_RESOLVE(init, cuInit);
    STRATA_RESOLVE(driver_get_version, cuDriverGetVersion);
    STRATA_RESOLVE(get_error_name, cuGetErrorName);
    STRATA_RESOLVE(get_error_string, cuGetErrorString);
    STRATA_RESOLVE(device_get_count, cuDeviceGetCount);
    STRATA_RESOLVE(device_get, cuDeviceGet);
    STRATA_RESOLVE(device_get_name, cuDeviceGetName);
    STRATA_RESOLVE(device_get_uuid, cuDeviceGetUuid);
    STRATA_RESOLVE(device_get_pci_bus_id, cuDeviceGetPCIBusId);
    STRATA_RESOLVE(device_total_mem, cuDeviceTotalMem);
    STRATA_RESOLVE(device_get_attribute, cuDeviceGetAttribute);
    STRATA_RESOLVE(primary_ctx_retain, cuDevicePrimaryCtxRetain);
    STRATA_RESOLVE(primary_ctx_release, cuDevicePrimaryCtxRelease);
    STRATA_RESOLVE(ctx_set_current, cuCtxSetCurrent);
    STRATA_RESOLVE(ctx_synchronize, cuCtxSynchronize);
    STRATA_RESOLVE(module_load_data_ex, cuModuleLoadDataEx);
    STRATA_RESOLVE(module_unload, cuModuleUnload);
    STRATA_RESOLVE(module_get_function, cuModuleGetFunction);
    STRATA_RESOLVE(mem_alloc, cuMemAlloc);
    STRATA_RESOLVE(mem_free, cuMemFree);
    STRATA_RESOLVE(memcpy_htod, cuMemcpyHtoD);
    STRATA_RESOLVE(memcpy_dtoh, cuMemcpyDtoH);
    STRATA_RESOLVE(launch_kernel, cuLaunchKernel);
#undef STRATA_RESOLVE
    return api;
}

}  // namespace strata::driver
