// The libcuda entry points the driver-facing benchmarks call, beyond the
// probe's: streams, events, asynchronous copies, pools, pinned memory,
// contexts and graphs. Resolved by the names every driver since CUDA 12.0
// exports (cuEventElapsedTime, not its 12.8 _v2; cuCtxCreate_v2, not 12.5's
// _v4), so a rollout from an older driver measures both sides the same way.
#pragma once

#include <cuda.h>

#include <string>

#include "../driver_api.h"

namespace strata::driver::bench {

struct BenchmarkApi : DriverApi {
    using CtxCreateV2 = CUresult (*)(CUcontext*, unsigned, CUdevice);
    using GraphAddKernelNodeV1 = CUresult (*)(CUgraphNode*, CUgraph, const CUgraphNode*, size_t,
                                              const CUDA_KERNEL_NODE_PARAMS_v1*);

    CtxCreateV2 ctx_create = nullptr;
    decltype(&::cuCtxDestroy) ctx_destroy = nullptr;
    decltype(&::cuCtxGetCurrent) ctx_get_current = nullptr;
    decltype(&::cuCtxGetDevice) ctx_get_device = nullptr;
    decltype(&::cuStreamCreate) stream_create = nullptr;
    decltype(&::cuStreamDestroy) stream_destroy = nullptr;
    decltype(&::cuStreamSynchronize) stream_synchronize = nullptr;
    decltype(&::cuStreamWaitEvent) stream_wait_event = nullptr;
    decltype(&::cuEventCreate) event_create = nullptr;
    decltype(&::cuEventDestroy) event_destroy = nullptr;
    decltype(&::cuEventRecord) event_record = nullptr;
    decltype(&::cuEventSynchronize) event_synchronize = nullptr;
    decltype(&::cuEventElapsedTime) event_elapsed_time = nullptr;
    decltype(&::cuMemAllocAsync) mem_alloc_async = nullptr;
    decltype(&::cuMemFreeAsync) mem_free_async = nullptr;
    decltype(&::cuDeviceGetDefaultMemPool) device_get_default_mem_pool = nullptr;
    decltype(&::cuMemPoolSetAttribute) mem_pool_set_attribute = nullptr;
    decltype(&::cuMemHostAlloc) mem_host_alloc = nullptr;
    decltype(&::cuMemFreeHost) mem_free_host = nullptr;
    decltype(&::cuMemHostRegister) mem_host_register = nullptr;
    decltype(&::cuMemHostUnregister) mem_host_unregister = nullptr;
    decltype(&::cuMemcpyHtoDAsync) memcpy_htod_async = nullptr;
    decltype(&::cuMemcpyDtoHAsync) memcpy_dtoh_async = nullptr;
    decltype(&::cuMemcpyDtoDAsync) memcpy_dtod_async = nullptr;
    decltype(&::cuGraphCreate) graph_create = nullptr;
    GraphAddKernelNodeV1 graph_add_kernel_node = nullptr;
    decltype(&::cuGraphGetNodes) graph_get_nodes = nullptr;
    decltype(&::cuGraphInstantiateWithFlags) graph_instantiate = nullptr;
    decltype(&::cuGraphLaunch) graph_launch = nullptr;
    decltype(&::cuGraphExecDestroy) graph_exec_destroy = nullptr;
    decltype(&::cuGraphDestroy) graph_destroy = nullptr;
    decltype(&::cuDeviceCanAccessPeer) device_can_access_peer = nullptr;
    decltype(&::cuCtxEnablePeerAccess) ctx_enable_peer_access = nullptr;
    decltype(&::cuCtxDisablePeerAccess) ctx_disable_peer_access = nullptr;
    decltype(&::cuMemcpyPeerAsync) memcpy_peer_async = nullptr;

    // Entry points this libcuda lacks, among the benchmarks' own.
    std::string missing_text;
};

// libcuda, opened once for every benchmark of the process (the harness has
// already run cuInit and made the GPU's primary context current).
const BenchmarkApi& benchmark_api();

}  // namespace strata::driver::bench
