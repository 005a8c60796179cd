// Copies between two GPUs, as nvbandwidth's device_to_device_memcpy_read_ce
// and _write_ce measure them (testcases_ce.cpp): cuMemcpyPeerAsync on the
// benchmark GPU's stream between two events, bytes per copy x copies / event
// time, in GB/s of 1e9 bytes, counted once. "read" copies from the peer into
// the benchmark GPU, "write" from it to the peer. The peer is the next GPU
// CUDA numbers (the last GPU's is GPU 0). With peer access enabled
// (cuCtxEnablePeerAccess) the copy engines reach the peer over NVLink or
// PCIe directly; without it the driver stages the copy through host memory,
// a path nvbandwidth leaves out and a driver update can change. The latency
// is the event time of one 4-byte copy. Each needs two GPUs
// (strata_plugin_descriptor.benchmark_gpus).
#pragma once

#include "benchmark_case.h"

namespace strata::driver::bench {

enum PeerVariant {
    kPeerReadDirect = 0,
    kPeerWriteDirect = 1,
    kPeerReadStaged = 2,   // peer access disabled
    kPeerWriteStaged = 3,  // peer access disabled
    kPeerLatencyDirect = 4,
};

bool validate_peer(const Case& c, const Run& run);
bool run_peer(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms);
void release_peers();

}  // namespace strata::driver::bench
