#include "benchmark_api.h"

#include <dlfcn.h>

namespace strata::driver::bench {

const BenchmarkApi& benchmark_api() {
    static const BenchmarkApi api = [] {
        BenchmarkApi out;
        static_cast<DriverApi&>(out) = open_driver_api();
        if (!out.loaded()) return out;
        auto resolve = [&](auto& field, const char* name) {
            field = reinterpret_cast<std::remove_reference_t<decltype(field)>>(dlsym(out.handle, name));
            if (!field) out.missing_text += (out.missing_text.empty() ? "" : " ") + std::string(name);
        };
        resolve(out.ctx_create, "cuCtxCreate_v2");
        resolve(out.ctx_destroy, "cuCtxDestroy_v2");
        resolve(out.ctx_get_current, "cuCtxGetCurrent");
        resolve(out.ctx_get_device, "cuCtxGetDevice");
        resolve(out.stream_create, "cuStreamCreate");
        resolve(out.stream_destroy, "cuStreamDestroy_v2");
        resolve(out.stream_synchronize, "cuStreamSynchronize");
        resolve(out.stream_wait_event, "cuStreamWaitEvent");
        resolve(out.event_create, "cuEventCreate");
        resolve(out.event_destroy, "cuEventDestroy_v2");
        resolve(out.event_record, "cuEventRecord");
        resolve(out.event_synchronize, "cuEventSynchronize");
        resolve(out.event_elapsed_time, "cuEventElapsedTime");
        resolve(out.mem_alloc_async, "cuMemAllocAsync");
        resolve(out.mem_free_async, "cuMemFreeAsync");
        resolve(out.device_get_default_mem_pool, "cuDeviceGetDefaultMemPool");
        resolve(out.mem_pool_set_attribute, "cuMemPoolSetAttribute");
        resolve(out.mem_host_alloc, "cuMemHostAlloc");
        resolve(out.mem_free_host, "cuMemFreeHost");
        resolve(out.mem_host_register, "cuMemHostRegister_v2");
        resolve(out.mem_host_unregister, "cuMemHostUnregister");
        resolve(out.memcpy_htod_async, "cuMemcpyHtoDAsync_v2");
        resolve(out.memcpy_dtoh_async, "cuMemcpyDtoHAsync_v2");
        resolve(out.memcpy_dtod_async, "cuMemcpyDtoDAsync_v2");
        resolve(out.device_can_access_peer, "cuDeviceCanAccessPeer");
        resolve(out.ctx_enable_peer_access, "cuCtxEnablePeerAccess");
        resolve(out.ctx_disable_peer_access, "cuCtxDisablePeerAccess");
        resolve(out.memcpy_peer_async, "cuMemcpyPeerAsync");
        resolve(out.graph_create, "cuGraphCreate");
        resolve(out.graph_add_kernel_node, "cuGraphAddKernelNode");
        resolve(out.graph_get_nodes, "cuGraphGetNodes");
        resolve(out.graph_instantiate, "cuGraphInstantiateWithFlags");
        resolve(out.graph_launch, "cuGraphLaunch");
        resolve(out.graph_exec_destroy, "cuGraphExecDestroy");
        resolve(out.graph_destroy, "cuGraphDestroy");
        return out;
    }();
    return api;
}

}  // namespace strata::driver::bench
