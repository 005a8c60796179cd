// The NCCL collectives of nccl-tests (sum of FP32 where they reduce) across
// every local GPU from one process, one communicator per GPU
// (ncclCommInitAll), with buffers for the largest size so that one set of
// communicators serves every collective and size. With one GPU each is a
// one-rank collective: NCCL copies, no bus is crossed.
#pragma once

#include <nccl.h>

#include <string>
#include <vector>

#include "bus_bandwidth.h"
#include "cuda_helpers.h"

namespace strata::nccl {

class Collectives {
public:
    // Rank r runs on GPU r. The current GPU is the home rank: it uses
    // `home_stream` (the benchmark's stream, which belongs to that GPU; the
    // others get their own) and carries the timing events. nullptr means the
    // home GPU gets its own stream too. `max_count` elements per buffer.
    Collectives(size_t max_count, cudaStream_t home_stream);
    ~Collectives();
    Collectives(const Collectives&) = delete;
    Collectives& operator=(const Collectives&) = delete;

    // Why the communicators or buffers could not be made; empty when they were.
    const std::string& error() const { return error_; }
    // Why the last collective failed: one collective the driver or NCCL
    // refuses leaves the others usable.
    const std::string& last_error() const { return last_error_; }
    int ranks() const { return static_cast<int>(comms_.size()); }
    int home() const { return home_; }
    // Enqueues one collective of `total` elements (nccl-tests' size; at most
    // max_count) on every GPU, in one NCCL group. Broadcast and reduce use
    // root 0; send/recv sends to the next rank and receives from the
    // previous; alltoall is a send and a receive per pair, as nccl-tests does.
    bool run(Collective c, size_t total);
    // Every rank's output against what the collective must give from the
    // inputs (rank r's input is a common pattern times r + 1, so a missing
    // or doubled rank shows).
    struct Check {
        double error = 0;
        int rank = 0;
        size_t index = 0;
        double got = 0, want = 0;
        std::string problem;
    };
    Check verify(Collective c, size_t total);
    // Device time of `iterations` collectives, measured with events on the
    // home stream, which the other GPUs' streams first wait for and which at
    // the end waits for every GPU to finish.
    bool time(Collective c, size_t total, uint64_t iterations, double* elapsed_ms);
    // nccl-tests' S for a run of `total` elements: the bytes the benchmark moves.
    double moved_bytes(Collective c, size_t total) const;

private:
    bool enqueue(Collective c, size_t total);

    size_t max_count_;
    int home_ = 0;
    std::vector<ncclComm_t> comms_;
    std::vector<cudaStream_t> streams_;
    std::vector<bool> own_stream_;
    std::vector<plugin::DeviceBuffer<float>> send_, receive_;
    std::string error_;
    std::string last_error_;
};

}  // namespace strata::nccl
