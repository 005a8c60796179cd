#include "driver_session.h"

#include <cuda.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>

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
    decltype(&::cuDeviceGetAttribute) attribute = nullptr;
    decltype(&::cuModuleLoadDataEx) module_load = nullptr;
    decltype(&::cuModuleUnload) module_unload = nullptr;

    bool complete() const {
        return init && error_name && device_count && device_get && device_name && retain && release &&
               set_current && stream_create && stream_destroy && attribute && module_load && module_unload;
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
        STRATA_RESOLVE(attribute, cuDeviceGetAttribute);
        STRATA_RESOLVE(module_load, cuModuleLoadDataEx);
        STRATA_RESOLVE(module_unload, cuModuleUnload);
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
    count_ = count;
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
    int major = 0, minor = 0;
    if (api.attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle) == CUDA_SUCCESS &&
        api.attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle) == CUDA_SUCCESS)
        cc_ = major * 10 + minor;
    CUstream stream = nullptr;
    if ((rc = api.set_current(context)) != CUDA_SUCCESS ||
        (rc = api.stream_create(&stream, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS) {
        unavailable_ = "GPU " + std::to_string(device) + ": " + api.describe(rc);
        return;
    }
    stream_ = stream;
}

DriverSession::ModuleLoad DriverSession::load_module(const void* image) const {
    ModuleLoad out;
    if (!api_ || !stream_) {
        out.error = unavailable_.empty() ? "no context" : unavailable_;
        return out;
    }
    char error_log[8192] = {};
    CUjit_option options[] = {CU_JIT_WALL_TIME, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* values[] = {nullptr, error_log, reinterpret_cast<void*>(sizeof error_log - 1)};
    CUmodule module = nullptr;
    auto cpu_now = [] {
        timespec t{};
        ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
    };
    double cpu_started = cpu_now();
    auto started = std::chrono::steady_clock::now();
    CUresult rc = api_->module_load(&module, image, 3, options, values);
    out.host_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    out.cpu_ms = cpu_now() - cpu_started;
    if (rc != CUDA_SUCCESS) {
        out.error = "cuModuleLoadDataEx: " + api_->describe(rc) +
                    (error_log[0] ? std::string("; JIT log: ") + error_log : std::string());
        return out;
    }
    // The driver writes the float's bits into the option's value slot.
    static_assert(sizeof(void*) >= sizeof(float));
    std::memcpy(&out.jit_wall_ms, &values[0], sizeof out.jit_wall_ms);
    api_->module_unload(module);
    out.loaded = true;
    return out;
}

DriverSession::~DriverSession() {
    if (!api_) return;
    if (stream_) api_->stream_destroy(static_cast<CUstream>(stream_));
    CUdevice handle = 0;
    if (retained_ && api_->device_get(&handle, device_) == CUDA_SUCCESS) api_->release(handle);
}

}  // namespace strata::bench
