#include "driver_session.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdlib>

namespace strata::bench {

// The few entry points the session needs, under cuda.h's versioned names.
struct DriverSession::Api {
    void* handle = nullptr;
    decltype(&::cuInit) init = nullptr;
    decltype(&::cuGetErrorName) error_name = nullptr;
    decltype(&::cuDeviceGetCount) device_count = nullptr;
    decltype(&::cuDeviceGet) device_get = nullptr;
    decltype(&::cuDeviceGetName) device_name = nullptr;
    decltype(&::cuDeviceGetPCIBusId) bus_id = nullptr;  // optional
    decltype(&::cuDevicePrimaryCtxRetain) retain = nullptr;
    decltype(&::cuDevicePrimaryCtxRelease) release = nullptr;
    decltype(&::cuCtxSetCurrent) set_current = nullptr;
    decltype(&::cuStreamCreate) stream_create = nullptr;
    decltype(&::cuStreamDestroy) stream_destroy = nullptr;

    bool complete() const {
        return init && error_name && device_count && device_get && device_name && retain && release &&
               set_current && stream_create && stream_destroy;
    }
    std::string describe(CUresult rc) const {
        const char* name = nullptr;
        error_name(rc, &name);
        return name ? name : "CUDA error " + std::to_string(static_cast<int>(rc));
    }
};

namespace {

#define STRATA_SYMBOL_TEXT(name) #name
#define STRATA_SYMBOL(name) STRATA_SYMBOL_TEXT(name)

template <typename Function>
void resolve(void* handle, Function& out, const char* name) {
    out = reinterpret_cast<Function>(dlsym(handle, name));
}

}  // namespace

DriverSession::DriverSession(int device) : device_(device) {
    // Read by the driver in cuInit: every PTX load of this worker compiles.
    ::setenv("CUDA_CACHE_DISABLE", "1", 1);
    static const Api api = [] {
        Api out;
        out.handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!out.handle) return out;
#define STRATA_RESOLVE(field, name) resolve(out.handle, out.field, STRATA_SYMBOL(name))
        STRATA_RESOLVE(init, cuInit);
        STRATA_RESOLVE(error_name, cuGetErrorName);
        STRATA_RESOLVE(device_count, cuDeviceGetCount);
        STRATA_RESOLVE(device_get, cuDeviceGet);
        STRATA_RESOLVE(device_name, cuDeviceGetName);
        STRATA_RESOLVE(bus_id, cuDeviceGetPCIBusId);
        STRATA_RESOLVE(retain, cuDevicePrimaryCtxRetain);
        STRATA_RESOLVE(release, cuDevicePrimaryCtxRelease);
        STRATA_RESOLVE(set_current, cuCtxSetCurrent);
        STRATA_RESOLVE(stream_create, cuStreamCreate);
        STRATA_RESOLVE(stream_destroy, cuStreamDestroy);
#undef STRATA_RESOLVE
        return out;
    }();
    if (!api.handle) {
        unavailable_ = "no NVIDIA driver (libcuda.so.1 cannot be loaded)";
        return;
    }
    if (!api.complete()) {
        unavailable_ = "this libcuda lacks entry points the driver benchmarks need";
        return;
    }
    api_ = &api;
    CUresult rc = api.init(0);
    if (rc != CUDA_SUCCESS) {
        unavailable_ = "cuInit: " + api.describe(rc);
        return;
    }
    int count = 0;
    if ((rc = api.device_count(&count)) != CUDA_SUCCESS || device >= count) {
        unavailable_ = rc != CUDA_SUCCESS
                           ? "cuDeviceGetCount: " + api.describe(rc)
                           : "no GPU " + std::to_string(device) + " (" + std::to_string(count) + " present)";
        return;
    }
    CUdevice handle = 0;
    CUcontext context = nullptr;
    char name[256] = {};
    if ((rc = api.device_get(&handle, device)) != CUDA_SUCCESS ||
        (rc = api.device_name(name, sizeof name - 1, handle)) != CUDA_SUCCESS ||
        (rc = api.retain(&context, handle)) != CUDA_SUCCESS) {
        unavailable_ = "GPU " + std::to_string(device) + ": " + api.describe(rc);
        return;
    }
    retained_ = true;
    name_ = name;
    char bus[32] = {};
    if (api.bus_id && api.bus_id(bus, sizeof bus - 1, handle) == CUDA_SUCCESS) bus_id_ = bus;
    CUstream stream = nullptr;
    if ((rc = api.set_current(context)) != CUDA_SUCCESS ||
        (rc = api.stream_create(&stream, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS) {
        unavailable_ = "GPU " + std::to_string(device) + ": " + api.describe(rc);
        return;
    }
    stream_ = stream;
}

DriverSession::~DriverSession() {
    if (!api_) return;
    if (stream_) api_->stream_destroy(static_cast<CUstream>(stream_));
    CUdevice handle = 0;
    if (retained_ && api_->device_get(&handle, device_) == CUDA_SUCCESS) api_->release(handle);
}

}  // namespace strata::bench
