// NCCL all-reduce (sum, FP32) across every local GPU from one process, one
// communicator per GPU (ncclCommInitAll). With one GPU it is a one-rank
// all-reduce, which still runs NCCL's kernels.
#pragma once

#include <nccl.h>

#include <string>
#include <vector>

#include "bus_bandwidth.h"
#include "cuda_helpers.h"

namespace strata::nccl {

class AllReduce {
public:
    // `first_stream` is used for GPU 0 (the benchmark's stream); the others
    // get their own. nullptr means the legacy default stream on GPU 0.
    AllReduce(size_t count, cudaStream_t first_stream);
    ~AllReduce();
    AllReduce(const AllReduce&) = delete;
    AllReduce& operator=(const AllReduce&) = delete;

    const std::string& error() const { return error_; }
    int ranks() const { return static_cast<int>(comms_.size()); }
    // Enqueues one all-reduce on every GPU (one NCCL group).
    bool run();
    // Every rank's output equals the sum of every rank's input.
    struct Check {
        double error = 0;
        int rank = 0;
        size_t index = 0;
        double got = 0, want = 0;
        std::string problem;
    };
    Check verify();
    // Device time of `iterations` all-reduces, measured with events on GPU 0's
    // stream, which first waits for every GPU to be ready and at the end for
    // every GPU to finish.
    bool time(uint64_t iterations, double* elapsed_ms);
    // The bus bandwidth factor of nccl-tests for all-reduce: 2(n-1)/n, 0 for one rank.
    double bus_factor() const { return all_reduce_bus_factor(ranks()); }

private:
    size_t count_;
    std::vector<ncclComm_t> comms_;
    std::vector<cudaStream_t> streams_;
    std::vector<bool> own_stream_;
    std::vector<plugin::DeviceBuffer<float>> send_, receive_;
    std::string error_;
};

}  // namespace strata::nccl
