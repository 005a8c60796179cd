// NCCL all-reduce (sum, FP32) across every local GPU from one process, one
// communicator per GPU (ncclCommInitAll), with buffers for the largest size
// so that one set of communicators serves every message size. With one GPU
// it is a one-rank all-reduce: NCCL copies the input, no collective runs.
#pragma once

#include <nccl.h>

#include <string>
#include <vector>

#include "bus_bandwidth.h"
#include "cuda_helpers.h"

namespace strata::nccl {

class AllReduce {
public:
    // Rank r runs on GPU r. The current GPU is the home rank: it uses
    // `home_stream` (the benchmark's stream, which belongs to that GPU; the
    // others get their own) and carries the timing events. nullptr means the
    // home GPU gets its own stream too.
    AllReduce(size_t max_count, cudaStream_t home_stream);
    ~AllReduce();
    AllReduce(const AllReduce&) = delete;
    AllReduce& operator=(const AllReduce&) = delete;

    const std::string& error() const { return error_; }
    int ranks() const { return static_cast<int>(comms_.size()); }
    int home() const { return home_; }
    // Enqueues one all-reduce of `count` floats (at most max_count) on every
    // GPU, in one NCCL group.
    bool run(size_t count);
    // Every rank's output equals the sum of every rank's input.
    struct Check {
        double error = 0;
        int rank = 0;
        size_t index = 0;
        double got = 0, want = 0;
        std::string problem;
    };
    Check verify(size_t count);
    // Device time of `iterations` all-reduces, measured with events on the
    // home stream, which the other GPUs' streams first wait for and which at
    // the end waits for every GPU to finish.
    bool time(size_t count, uint64_t iterations, double* elapsed_ms);
    // The bus bandwidth factor of nccl-tests for all-reduce: 2(n-1)/n, 0 for one rank.
    double bus_factor() const { return all_reduce_bus_factor(ranks()); }

private:
    size_t max_count_;
    int home_ = 0;
    std::vector<ncclComm_t> comms_;
    std::vector<cudaStream_t> streams_;
    std::vector<bool> own_stream_;
    std::vector<plugin::DeviceBuffer<float>> send_, receive_;
    std::string error_;
};

}  // namespace strata::nccl
