/*
 * A fault-injection libcuda.so.1: the driver entry points strata's driver
 * plugin calls, answering as STRATA_FAKE_CUDA says (keys in fake_config.h).
 * It also answers cuGetProcAddress with its own functions, so the real
 * libcudart resolves through it and sees the fake's driver version. cudart
 * needs private export tables past that point, so a fake driver carries
 * cudart as far as its version and device-count checks, not to a launch.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fake_config.h"
#include "fake_cuda_internal.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

static int initialised = 0;
static int cache_disabled = 0; /* CUDA_CACHE_DISABLE=1 at cuInit, as the driver reads it */

static const fake_config* config(void) {
    return fake_config_get();
}

/* Every call but cuInit, cuDriverGetVersion and the error strings needs a
 * successful cuInit first, as with the real driver. */
CUresult fake_require_init(void) {
    if (config()->init != 0) return (CUresult)config()->init;
    return initialised ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

static CUresult require_init(void) {
    return fake_require_init();
}

/* CUDA_VISIBLE_DEVICES, as the driver reads it: a comma-separated list of
 * GPU indices, read up to the first entry that is not a valid index or
 * repeats one; CUDA numbers the GPUs it lists 0, 1, ... in that order, while
 * NVML goes on seeing every GPU. Unset: every GPU, in order. */
#define FAKE_MAX_GPUS 64
static int visible[FAKE_MAX_GPUS];
static int visible_count = -1;

static void read_visible_devices(void) {
    if (visible_count >= 0) return;
    int devices = config()->devices < FAKE_MAX_GPUS ? config()->devices : FAKE_MAX_GPUS;
    const char* list = getenv("CUDA_VISIBLE_DEVICES");
    visible_count = 0;
    if (!list) {
        for (int i = 0; i < devices; ++i) visible[visible_count++] = i;
        return;
    }
    while (*list && visible_count < FAKE_MAX_GPUS) {
        char* end = NULL;
        long index = strtol(list, &end, 10);
        if (end == list || (*end != ',' && *end != '\0') || index < 0 || index >= devices) break;
        for (int i = 0; i < visible_count; ++i)
            if (visible[i] == index) return;
        visible[visible_count++] = (int)index;
        list = *end == ',' ? end + 1 : end;
    }
}

/* The GPU behind CUDA's ordinal, as NVML numbers it. */
static int physical_index(CUdevice device) {
    read_visible_devices();
    return visible[device];
}

static CUresult check_device(CUdevice device) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    read_visible_devices();
    return (device >= 0 && device < visible_count) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

FAKE_EXPORT CUresult cuInit(unsigned int flags) {
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (config()->init != 0) return (CUresult)config()->init;
    if (!initialised) fake_delay("cuInit"); /* the driver's start-up, once per process */
    initialised = 1;
    const char* disable = getenv("CUDA_CACHE_DISABLE");
    cache_disabled = disable && strcmp(disable, "1") == 0;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDriverGetVersion(int* version) {
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    *version = config()->version;
    return CUDA_SUCCESS;
}

struct error_text {
    int code;
    const char* name;
    const char* text;
};

static const struct error_text errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the provided PTX was compiled with an unsupported toolchain."},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
     "system has unsupported display driver / cuda driver combination"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
     "forward compatibility was attempted on non supported HW"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static const struct error_text* find_error(CUresult code) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i)
        if (errors[i].code == (int)code) return &errors[i];
    return NULL;
}

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char** name) {
    const struct error_text* entry = find_error(error);
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    *name = entry ? entry->name : NULL;
    return entry ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error, const char** text) {
    const struct error_text* entry = find_error(error);
    if (!text) return CUDA_ERROR_INVALID_VALUE;
    *text = entry ? entry->text : NULL;
    return entry ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int* count) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    read_visible_devices();
    *count = visible_count;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
    CUresult rc = check_device(ordinal);
    if (rc != CUDA_SUCCESS) return rc;
    *device = ordinal;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
    CUresult rc = check_device(device);
    if (rc != CUDA_SUCCESS) return rc;
    if (!name || length <= 0) return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)length, "%s", config()->name);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice device) {
    CUresult rc = check_device(device);
    if (rc != CUDA_SUCCESS) return rc;
    memset(uuid->bytes, 0, sizeof uuid->bytes);
    uuid->bytes[0] = 0xfa;
    uuid->bytes[15] = (char)physical_index(device);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetPCIBusId(char* bus_id, int length, CUdevice device) {
    CUresult rc = check_device(device);
    if (rc != CUDA_SUCCESS) return rc;
    /* As the real driver: a 4-digit domain (NVML's busId has 8). */
    snprintf(bus_id, (size_t)length, "0000:%02X:00.0", 0x18 + physical_index(device));
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceTotalMem(size_t* bytes, CUdevice device) {
    CUresult rc = check_device(device);
    if (rc != CUDA_SUCCESS) return rc;
    *bytes = (size_t)config()->mem_mb << 20;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
    CUresult rc = check_device(device);
    if (rc != CUDA_SUCCESS) return rc;
    switch (attribute) {
        case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = config()->cc_major; break;
        case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = config()->cc_minor; break;
        case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 132; break;
        case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *value = 1980000; break;
        case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *value = 3201000; break;
        case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *value = 6144; break;
        case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *value = 50 << 20; break;
        case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: *value = CU_COMPUTEMODE_DEFAULT; break;
        case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: *value = 1; break;
        default: *value = 0; break;
    }
    return CUDA_SUCCESS;
}

/* Modules and functions are opaque tokens; memory is host memory. A context
 * knows its GPU: the primary ones are fixed, created ones are allocated. */
static char fake_module, fake_function;
struct fake_context {
    CUdevice device;
};
static struct fake_context primary_contexts[FAKE_MAX_GPUS];
static struct fake_context* current_context;

/* Primary contexts retained and not yet released (strict_contexts). */
static int retained_contexts;

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
    CUresult rc = check_device(device);
    if (rc != CUDA_SUCCESS) return rc;
    /* A caller that retains a context while an earlier one was never released leaked it. */
    if (config()->strict_contexts && retained_contexts > 0) return CUDA_ERROR_UNKNOWN;
    fake_delay("cuDevicePrimaryCtxRetain");
    primary_contexts[device].device = device;
    *context = (CUcontext)(void*)&primary_contexts[device];
    ++retained_contexts;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice device) {
    CUresult rc = check_device(device);
    if (rc == CUDA_SUCCESS) --retained_contexts;
    return rc;
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext context) {
    CUresult rc = require_init();
    if (rc == CUDA_SUCCESS && config()->ctx_set_current != 0) return (CUresult)config()->ctx_set_current;
    if (rc == CUDA_SUCCESS) current_context = (struct fake_context*)(void*)context;
    return rc;
}

/* ---- peer access between the GPUs' contexts ---- */

static int peer_enabled[FAKE_MAX_GPUS][FAKE_MAX_GPUS]; /* [from][to], as the current context enabled it */

static int context_device(CUcontext context) {
    const struct fake_context* c = (const struct fake_context*)(void*)context;
    return c ? (int)c->device : -1;
}

int fake_peer_access(CUcontext from, CUcontext to) {
    int a = context_device(from), b = context_device(to);
    return a >= 0 && b >= 0 && a < FAKE_MAX_GPUS && b < FAKE_MAX_GPUS && peer_enabled[a][b];
}

CUcontext fake_current_context(void) {
    return (CUcontext)(void*)current_context;
}

FAKE_EXPORT CUresult cuDeviceCanAccessPeer(int* can, CUdevice device, CUdevice peer) {
    CUresult rc = require_init();
    if (rc == CUDA_SUCCESS) rc = check_device(device);
    if (rc == CUDA_SUCCESS) rc = check_device(peer);
    if (rc != CUDA_SUCCESS) return rc;
    if (!can) return CUDA_ERROR_INVALID_VALUE;
    /* p2p=0: GPUs without a peer-to-peer path (PCIe switches that block it). */
    *can = device != peer && fake_config_number("p2p", 1) != 0;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!current_context) return CUDA_ERROR_INVALID_CONTEXT;
    if (flags != 0 || !peer) return CUDA_ERROR_INVALID_VALUE;
    int from = (int)current_context->device, to = context_device(peer);
    if (from == to || fake_config_number("p2p", 1) == 0) return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
    if (peer_enabled[from][to]) return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    peer_enabled[from][to] = 1;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peer) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!current_context) return CUDA_ERROR_INVALID_CONTEXT;
    int from = (int)current_context->device, to = context_device(peer);
    if (to < 0 || !peer_enabled[from][to]) return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
    peer_enabled[from][to] = 0;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxGetCurrent(CUcontext* context) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!context) return CUDA_ERROR_INVALID_VALUE;
    *context = (CUcontext)(void*)current_context;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxGetDevice(CUdevice* device) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    if (!current_context) return CUDA_ERROR_INVALID_CONTEXT;
    *device = current_context->device;
    return CUDA_SUCCESS;
}

/* The CUDA 12.0 form every driver exports; it makes the new context current.
 * (cuda.h declares only the newest form.) */
FAKE_EXPORT CUresult cuCtxCreate_v2(CUcontext* context, unsigned int flags, CUdevice device);
FAKE_EXPORT CUresult cuCtxCreate_v2(CUcontext* context, unsigned int flags, CUdevice device) {
    (void)flags;
    CUresult rc = check_device(device);
    if (rc != CUDA_SUCCESS) return rc;
    if (!context) return CUDA_ERROR_INVALID_VALUE;
    fake_delay("cuCtxCreate_v2");
    struct fake_context* made = malloc(sizeof *made);
    if (!made) return CUDA_ERROR_OUT_OF_MEMORY;
    made->device = device;
    current_context = made;
    *context = (CUcontext)(void*)made;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxDestroy_v2(CUcontext context) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    struct fake_context* gone = (struct fake_context*)(void*)context;
    if (!gone || (gone >= primary_contexts && gone < primary_contexts + FAKE_MAX_GPUS))
        return CUDA_ERROR_INVALID_CONTEXT;
    fake_delay("cuCtxDestroy_v2");
    if (current_context == gone) current_context = NULL;
    free(gone);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxSynchronize(void) {
    return require_init();
}

/* The compute cache's entry for a PTX image: a file named by the text's
 * FNV-1a hash, in $CUDA_CACHE_PATH or $HOME/.nv/ComputeCache. */
static int cache_entry(const char* ptx, char* path, size_t size) {
    unsigned long long hash = 1469598103934665603ull;
    for (const char* c = ptx; *c; ++c) hash = (hash ^ (unsigned char)*c) * 1099511628211ull;
    const char* root = getenv("CUDA_CACHE_PATH");
    const char* home = getenv("HOME");
    char directory[4096];
    if (root && *root)
        snprintf(directory, sizeof directory, "%s", root);
    else if (home && *home)
        snprintf(directory, sizeof directory, "%s/.nv/ComputeCache", home);
    else
        return 0;
    snprintf(path, size, "%s/strata-fake-%016llx", directory, hash);
    char parent[4096];
    snprintf(parent, sizeof parent, "%s/.nv", home ? home : "");
    if (!root) mkdir(parent, 0700);
    mkdir(directory, 0700);
    return 1;
}

/* Whether an image is PTX text: ELF cubins and fat binaries are not. */
static int is_ptx(const void* image) {
    const char* text = (const char*)image;
    if (memcmp(text,
               "\x7f"
               "ELF",
               4) == 0 ||
        memcmp(text, "\x50\xed\x55\xba", 4) == 0)
        return 0;
    return strstr(text, ".version") != NULL;
}

/* A PTX image (or a fat binary whose PTX is compiled, `key` naming it) costs
 * jit_ms unless the compute cache already has it; the milliseconds spent, as
 * CU_JIT_WALL_TIME reports them. */
static float jit_compile(const char* key) {
    if (config()->jit_ms <= 0) return 0;
    char path[4200];
    int cacheable = !cache_disabled && cache_entry(key, path, sizeof path);
    if (cacheable && access(path, F_OK) == 0) return 0; /* a cache hit costs nothing */
    struct timespec pause = {config()->jit_ms / 1000, (long)(config()->jit_ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
    if (cacheable) {
        FILE* entry = fopen(path, "w");
        if (entry) fclose(entry);
    }
    return (float)config()->jit_ms;
}

/* The JIT options the caller passed: its wall time and error log. */
static void answer_jit_options(unsigned int count, CUjit_option* options, void** values, float wall_ms,
                               const char* error) {
    for (unsigned int i = 0; options && values && i < count; ++i) {
        if (options[i] == CU_JIT_WALL_TIME) {
            memcpy(&values[i], &wall_ms, sizeof wall_ms);
        } else if (options[i] == CU_JIT_ERROR_LOG_BUFFER && error) {
            size_t size = 0;
            for (unsigned int j = 0; j < count; ++j)
                if (options[j] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) size = (size_t)(uintptr_t)values[j];
            if (size > 0 && values[i]) snprintf((char*)values[i], size, "%s", error);
        }
    }
}

static int is_fatbin(const void* image) {
    return memcmp(image, "\x50\xed\x55\xba", 4) == 0;
}

static unsigned long long load_u64(const unsigned char* at) {
    unsigned long long value = 0;
    for (int i = 7; i >= 0; --i) value = (value << 8) | at[i];
    return value;
}

static unsigned load_u32(const unsigned char* at) {
    return (unsigned)at[0] | (unsigned)at[1] << 8 | (unsigned)at[2] << 16 | (unsigned)at[3] << 24;
}

/* A fat binary as the driver reads it (fake_config.h): the container's
 * entries (u16 kind 1 PTX / 2 SASS, u32 header size at 4, u64 payload size
 * at 8, u32 arch at 28), SASS for the GPU first, then PTX to compile. */
static CUresult load_fatbin(CUmodule* module, const unsigned char* fatbin, unsigned int count,
                            CUjit_option* options, void** values) {
    unsigned long long size = 16 + load_u64(fatbin + 8);
    unsigned long long hash = 1469598103934665603ull;
    for (unsigned long long i = 0; i < size; ++i) hash = (hash ^ fatbin[i]) * 1099511628211ull;
    char name[17];
    snprintf(name, sizeof name, "%016llx", hash);
    if (config()->load_dump[0]) {
        char path[700];
        snprintf(path, sizeof path, "%s/%s.fatbin", config()->load_dump, name);
        FILE* dump = fopen(path, "wb");
        if (dump) {
            fwrite(fatbin, 1, (size_t)size, dump);
            fclose(dump);
        }
    }
    if (strcmp(config()->fatbin_refuse, name) == 0) {
        answer_jit_options(
            count, options, values, 0,
            "ptxas application ptx input, line 9; fatal   : the fake driver's JIT refuses this "
            "fat binary");
        return CUDA_ERROR_INVALID_PTX;
    }
    unsigned gpu = (unsigned)(config()->cc_major * 10 + config()->cc_minor);
    int native = 0, compilable = 0;
    for (unsigned long long at = 16; at + 32 <= size;) {
        unsigned kind = (unsigned)fatbin[at] | (unsigned)fatbin[at + 1] << 8;
        unsigned header = load_u32(fatbin + at + 4);
        unsigned long long payload = load_u64(fatbin + at + 8);
        unsigned arch = load_u32(fatbin + at + 28);
        if (header == 0) break;
        if (kind == 2 && arch / 10 == gpu / 10 && arch <= gpu) native = 1;
        if (kind == 1 && arch <= gpu) compilable = 1;
        at += header + payload;
    }
    float wall = 0;
    if (!native && !compilable) return CUDA_ERROR_NO_BINARY_FOR_GPU;
    if (!native) wall = jit_compile(name);
    answer_jit_options(count, options, values, wall, NULL);
    *module = (CUmodule)(void*)&fake_module;
    return CUDA_SUCCESS;
}

static CUresult load_module(CUmodule* module, const void* image, unsigned int count, CUjit_option* options,
                            void** values) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!module || !image) return CUDA_ERROR_INVALID_VALUE;
    fake_delay("cuModuleLoadDataEx");
    if (config()->module_load != 0) return (CUresult)config()->module_load;
    if (config()->ptx_load != 0 && is_ptx(image)) {
        answer_jit_options(
            count, options, values, 0,
            "ptxas application ptx input, line 1; fatal   : the fake driver's JIT refuses this PTX");
        return (CUresult)config()->ptx_load;
    }
    if (is_fatbin(image)) return load_fatbin(module, (const unsigned char*)image, count, options, values);
    float wall = is_ptx(image) ? jit_compile((const char*)image) : 0;
    answer_jit_options(count, options, values, wall, NULL);
    *module = (CUmodule)(void*)&fake_module;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleLoadData(CUmodule* module, const void* image) {
    return load_module(module, image, 0, NULL, NULL);
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int count,
                                        CUjit_option* options, void** values) {
    return load_module(module, image, count, options, values);
}

FAKE_EXPORT CUresult cuModuleUnload(CUmodule module) {
    (void)module;
    return require_init();
}

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!function || !module || !name) return CUDA_ERROR_INVALID_VALUE;
    *function = (CUfunction)(void*)&fake_function;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemAlloc(CUdeviceptr* pointer, size_t bytes) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    fake_delay("cuMemAlloc_v2");
    void* memory = calloc(1, bytes ? bytes : 1);
    if (!memory) return CUDA_ERROR_OUT_OF_MEMORY;
    *pointer = (CUdeviceptr)(uintptr_t)memory;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemFree(CUdeviceptr pointer) {
    fake_delay("cuMemFree_v2");
    free((void*)(uintptr_t)pointer);
    return require_init();
}

FAKE_EXPORT CUresult cuMemcpyHtoD(CUdeviceptr destination, const void* source, size_t bytes) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    memcpy((void*)(uintptr_t)destination, source, bytes);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoH(void* destination, CUdeviceptr source, size_t bytes) {
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    memcpy(destination, (const void*)(uintptr_t)source, bytes);
    return CUDA_SUCCESS;
}

/* Accepts the launch; the work runs on the simulated device, which drops
 * it unless kernels_run=1: a driver that drops work, by default. */
FAKE_EXPORT CUresult cuLaunchKernel(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                    unsigned block_x, unsigned block_y, unsigned block_z,
                                    unsigned shared_bytes, CUstream stream, void** parameters, void** extra) {
    (void)grid_y, (void)grid_z, (void)block_y, (void)block_z, (void)shared_bytes, (void)extra;
    CUresult rc = require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!function) return CUDA_ERROR_INVALID_HANDLE;
    fake_delay("cuLaunchKernel");
    fake_run_kernel(stream, grid_x, block_x, parameters);
    return CUDA_SUCCESS;
}

struct entry_point {
    const char* name;
    void* function;
};

FAKE_EXPORT CUresult cuGetProcAddress(const char* symbol, void** function, int cuda_version, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult* status);

/* Names as cudart asks for them (unversioned); the fake has one version of each. */
static const struct entry_point entry_points[] = {
    {"cuInit", (void*)cuInit},
    {"cuDriverGetVersion", (void*)cuDriverGetVersion},
    {"cuGetErrorName", (void*)cuGetErrorName},
    {"cuGetErrorString", (void*)cuGetErrorString},
    {"cuDeviceGetCount", (void*)cuDeviceGetCount},
    {"cuDeviceGet", (void*)cuDeviceGet},
    {"cuDeviceGetName", (void*)cuDeviceGetName},
    {"cuDeviceGetUuid", (void*)cuDeviceGetUuid},
    {"cuDeviceGetPCIBusId", (void*)cuDeviceGetPCIBusId},
    {"cuDeviceTotalMem", (void*)cuDeviceTotalMem},
    {"cuDeviceGetAttribute", (void*)cuDeviceGetAttribute},
    {"cuGetProcAddress", (void*)cuGetProcAddress},
};

FAKE_EXPORT CUresult cuGetProcAddress(const char* symbol, void** function, int cuda_version, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult* status) {
    (void)cuda_version, (void)flags;
    if (!symbol || !function) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof entry_points / sizeof entry_points[0]; ++i) {
        if (strcmp(entry_points[i].name, symbol) == 0) {
            *function = entry_points[i].function;
            if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
            return CUDA_SUCCESS;
        }
    }
    *function = NULL;
    if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
}
