/*
 * The fake libcuda's simulated device: streams with timelines, events that
 * read them, asynchronous copies, stream-ordered pools, pinned host memory
 * and graphs. Work advances its stream's timeline by what fake_config.h's
 * keys say it takes (no real time passes), so the figures the driver-facing
 * benchmarks report through events are exactly those keys. Host-visible
 * costs are real waits, set per entry point (delay_us.<entry>).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_config.h"
#include "fake_cuda_internal.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

/* cuda.h declares these under their newest names; the benchmarks resolve
 * the names every driver since CUDA 12.0 exports. */
#undef cuEventElapsedTime
#undef cuGraphAddKernelNode
FAKE_EXPORT CUresult cuEventElapsedTime(float* milliseconds, CUevent start, CUevent end);
FAKE_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                          size_t count, const CUDA_KERNEL_NODE_PARAMS_v1* params);

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

void fake_delay(const char* entry) {
    char key[96];
    snprintf(key, sizeof key, "delay_us.%s", entry);
    double us = fake_config_number(key, 0);
    if (us <= 0) return;
    /* A spin: a sleep this short would oversleep by the timer slack. */
    double until = now_us() + us;
    while (now_us() < until) {
    }
}

/* ---- streams and their timelines ---- */

struct fake_stream {
    double busy_until_us; /* when the last work enqueued on it ends, in device time */
};
static struct fake_stream default_stream;

static struct fake_stream* stream_of(CUstream stream) {
    return stream ? (struct fake_stream*)(void*)stream : &default_stream;
}

static void enqueue_us(CUstream stream, double us) {
    stream_of(stream)->busy_until_us += us;
}

FAKE_EXPORT CUresult cuStreamCreate(CUstream* stream, unsigned int flags) {
    (void)flags;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!stream) return CUDA_ERROR_INVALID_VALUE;
    struct fake_stream* made = calloc(1, sizeof *made);
    if (!made) return CUDA_ERROR_OUT_OF_MEMORY;
    *stream = (CUstream)(void*)made;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamDestroy_v2(CUstream stream) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (stream) free(stream_of(stream));
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamSynchronize(CUstream stream) {
    (void)stream;
    CUresult rc = fake_require_init();
    if (rc == CUDA_SUCCESS) fake_delay("cuStreamSynchronize");
    return rc;
}

/* ---- events ---- */

struct fake_event {
    double at_us;
    int recorded;
};

FAKE_EXPORT CUresult cuEventCreate(CUevent* event, unsigned int flags) {
    (void)flags;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!event) return CUDA_ERROR_INVALID_VALUE;
    struct fake_event* made = calloc(1, sizeof *made);
    if (!made) return CUDA_ERROR_OUT_OF_MEMORY;
    *event = (CUevent)(void*)made;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventDestroy_v2(CUevent event) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    free(event);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventRecord(CUevent event, CUstream stream) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!event) return CUDA_ERROR_INVALID_HANDLE;
    struct fake_event* e = (struct fake_event*)(void*)event;
    e->at_us = stream_of(stream)->busy_until_us;
    e->recorded = 1;
    fake_delay("cuEventRecord");
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventSynchronize(CUevent event) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!event) return CUDA_ERROR_INVALID_HANDLE;
    fake_delay("cuEventSynchronize");
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventElapsedTime(float* milliseconds, CUevent start, CUevent end) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!milliseconds || !start || !end) return CUDA_ERROR_INVALID_VALUE;
    const struct fake_event* a = (const struct fake_event*)(void*)start;
    const struct fake_event* b = (const struct fake_event*)(void*)end;
    if (!a->recorded || !b->recorded) return CUDA_ERROR_INVALID_HANDLE;
    *milliseconds = (float)((b->at_us - a->at_us) / 1e3);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
    (void)flags;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!event) return CUDA_ERROR_INVALID_HANDLE;
    const struct fake_event* e = (const struct fake_event*)(void*)event;
    struct fake_stream* s = stream_of(stream);
    if (e->recorded && e->at_us > s->busy_until_us) s->busy_until_us = e->at_us;
    return CUDA_SUCCESS;
}

/* ---- pinned host memory ---- */

#define FAKE_MAX_PINNED 256
static struct {
    const char* start;
    size_t bytes;
} pinned[FAKE_MAX_PINNED];

static int pin(const void* start, size_t bytes) {
    for (int i = 0; i < FAKE_MAX_PINNED; ++i)
        if (!pinned[i].start) {
            pinned[i].start = start;
            pinned[i].bytes = bytes;
            return 1;
        }
    return 0;
}

static int unpin(const void* start) {
    for (int i = 0; i < FAKE_MAX_PINNED; ++i)
        if (pinned[i].start == start) {
            pinned[i].start = NULL;
            return 1;
        }
    return 0;
}

static int is_pinned(const void* address) {
    const char* p = address;
    for (int i = 0; i < FAKE_MAX_PINNED; ++i)
        if (pinned[i].start && p >= pinned[i].start && p < pinned[i].start + pinned[i].bytes) return 1;
    return 0;
}

FAKE_EXPORT CUresult cuMemHostAlloc(void** pointer, size_t bytes, unsigned int flags) {
    (void)flags;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!pointer) return CUDA_ERROR_INVALID_VALUE;
    fake_delay("cuMemHostAlloc");
    void* memory = calloc(1, bytes ? bytes : 1);
    if (!memory) return CUDA_ERROR_OUT_OF_MEMORY;
    if (!pin(memory, bytes)) {
        free(memory);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *pointer = memory;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemFreeHost(void* pointer) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!unpin(pointer)) return CUDA_ERROR_INVALID_VALUE;
    fake_delay("cuMemFreeHost");
    free(pointer);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemHostRegister_v2(void* pointer, size_t bytes, unsigned int flags) {
    (void)flags;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!pointer || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    if (is_pinned(pointer)) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    fake_delay("cuMemHostRegister_v2");
    return pin(pointer, bytes) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

FAKE_EXPORT CUresult cuMemHostUnregister(void* pointer) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    fake_delay("cuMemHostUnregister");
    return unpin(pointer) ? CUDA_SUCCESS : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

/* ---- asynchronous copies ---- */

static double copy_us(size_t bytes, const char* key, double default_gbps) {
    double gbps = fake_config_number(key, default_gbps);
    return gbps > 0 ? (double)bytes / (gbps * 1e3) : 0; /* bytes / (GB/s) in microseconds */
}

FAKE_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr destination, const void* source, size_t bytes,
                                          CUstream stream) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    fake_delay("cuMemcpyHtoDAsync_v2");
    memcpy((void*)(uintptr_t)destination, source, bytes);
    enqueue_us(stream,
               is_pinned(source) ? copy_us(bytes, "gbps.h2d", 25) : copy_us(bytes, "gbps.pageable", 10));
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoHAsync_v2(void* destination, CUdeviceptr source, size_t bytes,
                                          CUstream stream) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    fake_delay("cuMemcpyDtoHAsync_v2");
    memcpy(destination, (const void*)(uintptr_t)source, bytes);
    enqueue_us(stream,
               is_pinned(destination) ? copy_us(bytes, "gbps.d2h", 26) : copy_us(bytes, "gbps.pageable", 10));
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr destination, CUdeviceptr source, size_t bytes,
                                          CUstream stream) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    fake_delay("cuMemcpyDtoDAsync_v2");
    memmove((void*)(uintptr_t)destination, (const void*)(uintptr_t)source, bytes);
    enqueue_us(stream, copy_us(bytes, "gbps.d2d", 1500));
    return CUDA_SUCCESS;
}

/* Between two GPUs: over the direct path when the current context enabled
 * peer access to the other one, else staged through host memory; a copy
 * also costs a fixed latency on its stream. */
FAKE_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr destination, CUcontext destination_context,
                                       CUdeviceptr source, CUcontext source_context, size_t bytes,
                                       CUstream stream) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!destination_context || !source_context) return CUDA_ERROR_INVALID_CONTEXT;
    fake_delay("cuMemcpyPeerAsync");
    memmove((void*)(uintptr_t)destination, (const void*)(uintptr_t)source, bytes);
    CUcontext current = fake_current_context();
    CUcontext other = current == source_context ? destination_context : source_context;
    int direct = fake_peer_access(current, other);
    enqueue_us(
        stream,
        (direct ? fake_config_number("peer_latency_us", 2) : fake_config_number("staged_latency_us", 10)) +
            (direct ? copy_us(bytes, "gbps.peer", 50) : copy_us(bytes, "gbps.peer_staged", 12)));
    return CUDA_SUCCESS;
}

/* ---- stream-ordered pools ---- */

static char default_pool;

FAKE_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool* pool, CUdevice device) {
    (void)device;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!pool) return CUDA_ERROR_INVALID_VALUE;
    *pool = (CUmemoryPool)(void*)&default_pool;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attribute, void* value) {
    (void)attribute;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    return pool && value ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuMemAllocAsync(CUdeviceptr* pointer, size_t bytes, CUstream stream) {
    (void)stream;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!pointer) return CUDA_ERROR_INVALID_VALUE;
    fake_delay("cuMemAllocAsync");
    void* memory = calloc(1, bytes ? bytes : 1);
    if (!memory) return CUDA_ERROR_OUT_OF_MEMORY;
    *pointer = (CUdeviceptr)(uintptr_t)memory;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
    (void)stream;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    fake_delay("cuMemFreeAsync");
    free((void*)(uintptr_t)pointer);
    return CUDA_SUCCESS;
}

/* ---- kernels ---- */

void fake_run_kernel(CUstream stream, unsigned blocks, unsigned threads, void** parameters) {
    enqueue_us(stream, fake_config_number("kernel_us", 2));
    if (!fake_config_get()->kernels_run || !parameters) return;
    /* strata_probe_triad(a, b, c, scalar, n): a[i] = b[i] + scalar * c[i]. */
    float* a = *(float**)parameters[0];
    const float* b = *(float* const*)parameters[1];
    const float* c = *(float* const*)parameters[2];
    float scalar = *(const float*)parameters[3];
    unsigned long long n = *(const unsigned long long*)parameters[4];
    unsigned long long covered = (unsigned long long)blocks * threads;
    for (unsigned long long i = 0; i < n && i < covered; ++i) a[i] = b[i] + scalar * c[i];
}

/* ---- graphs: a chain of kernel nodes ---- */

struct fake_graph {
    size_t nodes;
};

FAKE_EXPORT CUresult cuGraphCreate(CUgraph* graph, unsigned int flags) {
    (void)flags;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!graph) return CUDA_ERROR_INVALID_VALUE;
    struct fake_graph* made = calloc(1, sizeof *made);
    if (!made) return CUDA_ERROR_OUT_OF_MEMORY;
    *graph = (CUgraph)(void*)made;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                          size_t count, const CUDA_KERNEL_NODE_PARAMS_v1* params) {
    (void)dependencies, (void)count;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!node || !graph || !params || !params->func) return CUDA_ERROR_INVALID_VALUE;
    struct fake_graph* g = (struct fake_graph*)(void*)graph;
    ++g->nodes;
    *node = (CUgraphNode)(uintptr_t)g->nodes;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuGraphGetNodes(CUgraph graph, CUgraphNode* nodes, size_t* count) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!graph || !count) return CUDA_ERROR_INVALID_VALUE;
    const struct fake_graph* g = (const struct fake_graph*)(void*)graph;
    if (nodes)
        for (size_t i = 0; i < *count && i < g->nodes; ++i) nodes[i] = (CUgraphNode)(uintptr_t)(i + 1);
    *count = g->nodes;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long flags) {
    (void)flags;
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!exec || !graph) return CUDA_ERROR_INVALID_VALUE;
    struct fake_graph* copy = malloc(sizeof *copy);
    if (!copy) return CUDA_ERROR_OUT_OF_MEMORY;
    *copy = *(const struct fake_graph*)(void*)graph;
    *exec = (CUgraphExec)(void*)copy;
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    if (!exec) return CUDA_ERROR_INVALID_HANDLE;
    fake_delay("cuGraphLaunch");
    const struct fake_graph* g = (const struct fake_graph*)(void*)exec;
    enqueue_us(stream, (double)g->nodes * fake_config_number("kernel_us", 2));
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuGraphExecDestroy(CUgraphExec exec) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    free(exec);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuGraphDestroy(CUgraph graph) {
    CUresult rc = fake_require_init();
    if (rc != CUDA_SUCCESS) return rc;
    free(graph);
    return CUDA_SUCCESS;
}
