/*
 * A fault-injection libnvidia-ml.so.1 for strata's tests, configured by
 * STRATA_FAKE_CUDA like the fake libcuda (keys in fake_config.h). NVML has no
 * header in the CUDA toolkit; the signatures below are NVML's documented ones.
 */
#include <stdio.h>
#include <string.h>

#include "fake_config.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

typedef int nvmlReturn_t; /* 0 success, 1 uninitialized, 2 invalid argument, 18 version mismatch */
typedef struct fake_nvml_device* nvmlDevice_t;

struct fake_nvml_device {
    unsigned index;
};

typedef struct {
    unsigned long long total, free, used;
} nvmlMemory_t;

typedef struct {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

static struct fake_nvml_device devices[64];
static int initialised = 0;

static const fake_config* config(void) {
    return fake_config_get();
}

static long long per_gpu(const char* key, nvmlDevice_t device, long long fallback) {
    return fake_config_per_gpu(key, device->index, fallback);
}

static nvmlReturn_t check_device(nvmlDevice_t device) {
    if (!initialised) return 1;
    if (!device || device->index >= (unsigned)config()->devices) return 2;
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlInit_v2(void) {
    if (config()->nvml_init != 0) return config()->nvml_init;
    initialised = 1;
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlShutdown(void) {
    initialised = 0;
    return 0;
}

FAKE_EXPORT const char* nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
        case 0: return "Success";
        case 1: return "Uninitialized";
        case 2: return "Invalid Argument";
        case 3: return "Not Supported";
        case 9: return "Driver Not Loaded";
        case 12: return "NVML Shared Library Not Found";
        case 18: return "Driver/library version mismatch";
        default: return "Unknown Error";
    }
}

FAKE_EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned length) {
    if (!initialised) return 1;
    snprintf(version, length, "%s", config()->nvml_driver);
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* version) {
    if (!initialised) return 1;
    *version = config()->version;
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* count) {
    if (!initialised) return 1;
    *count = (unsigned)config()->devices;
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t* device) {
    if (!initialised) return 1;
    if (index >= (unsigned)config()->devices || index >= sizeof devices / sizeof devices[0]) return 2;
    devices[index].index = index;
    *device = &devices[index];
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned length) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) snprintf(name, length, "%s", config()->name);
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned length) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) snprintf(uuid, length, "GPU-fa000000-0000-0000-0000-0000000000%02x", device->index);
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    memset(pci, 0, sizeof *pci);
    pci->bus = 0x18 + device->index;
    /* As the real NVML: busId with an 8-digit domain, busIdLegacy with 4. */
    snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", pci->bus);
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "0000:%02X:00.0", pci->bus);
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int* major, int* minor) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    *major = config()->cc_major;
    *minor = config()->cc_minor;
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    memory->total = (unsigned long long)config()->mem_mb << 20;
    memory->used = 512ull << 20;
    memory->free = memory->total - memory->used;
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned* current, unsigned* pending) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    *current = *pending = (unsigned)config()->mig;
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device, int* mode) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) *mode = config()->compute_mode; /* 0: NVML_COMPUTEMODE_DEFAULT */
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, int* mode) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) *mode = 1;
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t device, int* current, int* pending) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) *current = *pending = 1;
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned* mhz) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) *mhz = type == 2 ? 2619 : 1980; /* NVML_CLOCK_MEM = 2 */
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int type, unsigned* mhz) {
    nvmlReturn_t rc = nvmlDeviceGetClockInfo(device, type, mhz);
    if (rc == 0 && type == 1) *mhz = (unsigned)per_gpu("max_sm_clock", device, 1980); /* NVML_CLOCK_SM */
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device,
                                                                unsigned long long* reasons) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) *reasons = (unsigned long long)per_gpu("clock_reasons", device, 0);
    return rc;
}

/* ---- health ---- */

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, int error_type, int counter_type,
                                                     unsigned long long* count) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    /* error_type: 0 corrected, 1 uncorrected; counter_type: 0 volatile, 1 aggregate */
    static const char* const keys[2][2] = {{"ecc_corrected", "ecc_corrected_total"},
                                           {"ecc_uncorrected", "ecc_uncorrected_total"}};
    if (error_type < 0 || error_type > 1 || counter_type < 0 || counter_type > 1) return 2;
    *count = (unsigned long long)per_gpu(keys[error_type][counter_type], device, 0);
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t device, int* pending) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) *pending = (int)per_gpu("retired_pending", device, 0);
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device, unsigned* correctable,
                                                   unsigned* uncorrectable, unsigned* pending,
                                                   unsigned* failed) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    *correctable = (unsigned)per_gpu("remap_correctable", device, 0);
    *uncorrectable = (unsigned)per_gpu("remap_uncorrectable", device, 0);
    *pending = (unsigned)per_gpu("remap_pending", device, 0);
    *failed = (unsigned)per_gpu("remap_failed", device, 0);
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned* celsius) {
    nvmlReturn_t rc = check_device(device);
    if (rc == 0) *celsius = sensor == 0 ? (unsigned)per_gpu("temp", device, 40) : 0;
    return rc;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t device, int threshold,
                                                           unsigned* celsius) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    if (threshold != 1) return 3; /* only NVML_TEMPERATURE_THRESHOLD_SLOWDOWN */
    *celsius = (unsigned)per_gpu("temp_slowdown", device, 87);
    return 0;
}

#define FAKE_UNSIGNED_GETTER(function, key, fallback)                         \
    FAKE_EXPORT nvmlReturn_t function(nvmlDevice_t device, unsigned* value) { \
        nvmlReturn_t rc = check_device(device);                               \
        if (rc == 0) *value = (unsigned)per_gpu(key, device, fallback);       \
        return rc;                                                            \
    }
FAKE_UNSIGNED_GETTER(nvmlDeviceGetCurrPcieLinkGeneration, "pcie_gen", 5)
FAKE_UNSIGNED_GETTER(nvmlDeviceGetMaxPcieLinkGeneration, "pcie_gen_max", 5)
FAKE_UNSIGNED_GETTER(nvmlDeviceGetCurrPcieLinkWidth, "pcie_width", 16)
FAKE_UNSIGNED_GETTER(nvmlDeviceGetMaxPcieLinkWidth, "pcie_width_max", 16)

typedef struct {
    unsigned char clusterUuid[16];
    nvmlReturn_t status;
    unsigned int cliqueId;
    unsigned char state;
} nvmlGpuFabricInfo_t;

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetGpuFabricInfo(nvmlDevice_t device, nvmlGpuFabricInfo_t* info) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    memset(info, 0, sizeof *info);
    info->state = (unsigned char)per_gpu("fabric_state", device, 0);
    info->status = (nvmlReturn_t)per_gpu("fabric_status", device, 0);
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned link, int* active) {
    nvmlReturn_t rc = check_device(device);
    if (rc != 0) return rc;
    long long links = per_gpu("nvlinks", device, 0), down = per_gpu("nvlink_down", device, 0);
    if ((long long)link >= links) return 3; /* NVML_ERROR_NOT_SUPPORTED */
    *active = (long long)link < links - down;
    return 0;
}
