#include "launch_benchmarks.h"

#include <map>

#include "../probe_kernel_check.h"
#include "module_benchmarks.h"

namespace strata::driver::bench {

namespace {

// The probe kernel's parameters (a[i] = b[i] + scalar * c[i] for i < n)
// with n = 0: the kernel returns at once.
struct EmptyArguments {
    CUdeviceptr a = 0, b = 0, c = 0;
    float scalar = 3.0f;
    unsigned long long n = 0;
    void* pointers[5] = {&a, &b, &c, &scalar, &n};
};

EmptyArguments empty_arguments;

bool launch_empty(const Run& run, CUfunction function) {
    return ok(
        run,
        run.api.launch_kernel(function, 1, 1, 1, 1, 1, 1, 0, run.stream, empty_arguments.pointers, nullptr),
        "cuLaunchKernel");
}

struct Graph {
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
};
std::map<size_t, Graph> graphs;  // by node count

// A chain of `nodes` empty kernels, instantiated once.
CUgraphExec graph_of(const Run& run, CUfunction function, size_t nodes) {
    Graph& g = graphs[nodes];
    if (g.exec) return g.exec;
    if (!ok(run, run.api.graph_create(&g.graph, 0), "cuGraphCreate")) return nullptr;
    CUDA_KERNEL_NODE_PARAMS_v1 params{};
    params.func = function;
    params.gridDimX = params.gridDimY = params.gridDimZ = 1;
    params.blockDimX = params.blockDimY = params.blockDimZ = 1;
    params.kernelParams = empty_arguments.pointers;
    CUgraphNode previous = nullptr;
    for (size_t i = 0; i < nodes; ++i) {
        CUgraphNode node = nullptr;
        if (!ok(run,
                run.api.graph_add_kernel_node(&node, g.graph, previous ? &previous : nullptr,
                                              previous ? 1 : 0, &params),
                "cuGraphAddKernelNode"))
            return nullptr;
        previous = node;
    }
    if (!ok(run, run.api.graph_instantiate(&g.exec, g.graph, 0), "cuGraphInstantiate")) g.exec = nullptr;
    return g.exec;
}

}  // namespace

bool validate_launch(const Case& c, const Run& run) {
    if (c.variant == kEventSync || c.variant == kStreamSync) return true;  // no work to check
    CUfunction function = probe_function(run);
    if (!function) return false;
    // On real elements first: a launch that returns success and drops the
    // work is caught here, before any timing.
    if (ProbeKernelCheck check = check_probe_kernel(run.api, function, run.stream, 4096);
        !check.problem.empty()) {
        run.report.log(STRATA_LOG_ERROR, "the probe kernel: " + check.problem);
        return false;
    }
    if (c.variant != kGraphLaunch) return true;
    CUgraphExec exec = graph_of(run, function, c.size);
    size_t nodes = 0;
    if (!exec || !ok(run, run.api.graph_get_nodes(graphs[c.size].graph, nullptr, &nodes), "cuGraphGetNodes"))
        return false;
    if (nodes != c.size) {
        run.report.log(STRATA_LOG_ERROR,
                       "the graph holds " + std::to_string(nodes) + " nodes, not " + std::to_string(c.size));
        return false;
    }
    return ok(run, run.api.graph_launch(exec, run.stream), "cuGraphLaunch") &&
           ok(run, run.api.stream_synchronize(run.stream), "cuStreamSynchronize");
}

bool run_launch(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms) {
    auto synchronize = [&] { return ok(run, run.api.stream_synchronize(run.stream), "cuStreamSynchronize"); };
    switch (c.variant) {
        case kLaunchThroughput: {
            CUfunction function = probe_function(run);
            return function && host_timed_to_completion(run, iterations, elapsed_ms,
                                                        [&] { return launch_empty(run, function); });
        }
        case kLaunchRoundTrip: {
            CUfunction function = probe_function(run);
            return function && host_timed(iterations, elapsed_ms,
                                          [&] { return launch_empty(run, function) && synchronize(); });
        }
        case kGraphLaunch: {
            CUfunction function = probe_function(run);
            CUgraphExec exec = function ? graph_of(run, function, c.size) : nullptr;
            return exec && host_timed_to_completion(run, iterations, elapsed_ms, [&] {
                       return ok(run, run.api.graph_launch(exec, run.stream), "cuGraphLaunch");
                   });
        }
        case kEventSync: {
            CUevent event = nullptr;
            if (!ok(run, run.api.event_create(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate"))
                return false;
            bool good = host_timed(iterations, elapsed_ms, [&] {
                return ok(run, run.api.event_record(event, run.stream), "cuEventRecord") &&
                       ok(run, run.api.event_synchronize(event), "cuEventSynchronize");
            });
            run.api.event_destroy(event);
            return good;
        }
        case kStreamSync: return host_timed(iterations, elapsed_ms, synchronize);
    }
    return false;
}

void release_launches() {
    const BenchmarkApi& api = benchmark_api();
    for (auto& [nodes, g] : graphs) {
        if (g.exec) api.graph_exec_destroy(g.exec);
        if (g.graph) api.graph_destroy(g.graph);
    }
    graphs.clear();
}

}  // namespace strata::driver::bench
