#include "all_reduce.h"

#include <cmath>

namespace strata::nccl {

namespace {

// Rank r's input: the common pattern scaled by (r + 1), so the sum is the
// pattern times n(n+1)/2 and a missing or doubled rank shows.
std::vector<float> rank_input(size_t count, int rank) {
    auto values = plugin::input_pattern(count, 9);
    for (float& v : values) v *= static_cast<float>(rank + 1);
    return values;
}

}  // namespace

AllReduce::AllReduce(size_t count, cudaStream_t first_stream) : count_(count) {
    int devices = 0;
    if (cudaError_t rc = cudaGetDeviceCount(&devices); rc != cudaSuccess || devices == 0) {
        error_ = rc ? plugin::cuda_error_text(rc) : "no GPU";
        return;
    }
    comms_.resize(devices);
    if (ncclResult_t rc = ncclCommInitAll(comms_.data(), devices, nullptr); rc != ncclSuccess) {
        comms_.clear();
        error_ = std::string("ncclCommInitAll: ") + ncclGetErrorString(rc);
        return;
    }
    for (int d = 0; d < devices; ++d) {
        cudaSetDevice(d);
        cudaStream_t stream = first_stream;
        bool own = d != 0 || !first_stream;
        if (own && cudaStreamCreate(&stream) != cudaSuccess) {
            error_ = "cudaStreamCreate failed on GPU " + std::to_string(d);
            return;
        }
        streams_.push_back(stream);
        own_stream_.push_back(own);
        send_.emplace_back(count);
        receive_.emplace_back(count);
        if (send_.back().status() || receive_.back().status()) {
            error_ = "cudaMalloc failed on GPU " + std::to_string(d);
            return;
        }
        send_.back().upload(rank_input(count, d));
    }
    cudaSetDevice(0);
}

AllReduce::~AllReduce() {
    for (size_t d = 0; d < streams_.size(); ++d) {
        cudaSetDevice(static_cast<int>(d));
        if (own_stream_[d]) cudaStreamDestroy(streams_[d]);
    }
    for (ncclComm_t comm : comms_) ncclCommDestroy(comm);
    cudaSetDevice(0);
}

bool AllReduce::run() {
    if (!error_.empty()) return false;
    ncclResult_t rc = ncclGroupStart();
    for (size_t d = 0; rc == ncclSuccess && d < comms_.size(); ++d)
        rc = ncclAllReduce(send_[d].get(), receive_[d].get(), count_, ncclFloat, ncclSum, comms_[d],
                           streams_[d]);
    ncclResult_t end = ncclGroupEnd();
    if (rc == ncclSuccess) rc = end;
    if (rc != ncclSuccess) error_ = std::string("ncclAllReduce: ") + ncclGetErrorString(rc);
    return rc == ncclSuccess;
}

AllReduce::Check AllReduce::verify() {
    Check out;
    auto base = plugin::input_pattern(count_, 9);
    double factor = ranks() * (ranks() + 1) / 2.0;
    for (int d = 0; d < ranks(); ++d) {
        cudaSetDevice(d);
        std::vector<float> got;
        cudaError_t rc = cudaStreamSynchronize(streams_[d]);
        if (rc == cudaSuccess) rc = receive_[d].download(got);
        if (rc != cudaSuccess) {
            out.problem = "GPU " + std::to_string(d) + ": " + plugin::cuda_error_text(rc);
            break;
        }
        for (size_t i = 0; i < count_; ++i) {
            double want = base[i] * factor;
            double error = std::fabs(got[i] - want) / std::fmax(1.0, std::fabs(want));
            if (std::isnan(error)) error = INFINITY;
            if (error > out.error || (d == 0 && i == 0)) out = {error, d, i, got[i], want, {}};
        }
    }
    cudaSetDevice(0);
    return out;
}

bool AllReduce::time(uint64_t iterations, double* elapsed_ms) {
    if (!error_.empty()) return false;
    std::vector<cudaEvent_t> ready(ranks()), done(ranks());
    bool ok = true;
    for (int d = 0; d < ranks(); ++d) {
        cudaSetDevice(d);
        ok = ok && cudaEventCreateWithFlags(&ready[d], cudaEventDisableTiming) == cudaSuccess &&
             cudaEventCreateWithFlags(&done[d], cudaEventDisableTiming) == cudaSuccess;
    }
    cudaSetDevice(0);
    auto body = [&, first = true]() mutable {
        if (first) {  // every GPU's stream starts once GPU 0's start event is recorded
            first = false;
            cudaEventRecord(ready[0], streams_[0]);
            for (int d = 1; d < ranks(); ++d) cudaStreamWaitEvent(streams_[d], ready[0], 0);
        }
        return run();
    };
    // The last iteration's completion on every GPU gates GPU 0's stop event.
    ok = ok && plugin::time_on_stream(streams_[0], iterations, elapsed_ms, [&, left = iterations]() mutable {
             bool step = body();
             if (--left == 0)
                 for (int d = 1; d < ranks(); ++d) {
                     cudaSetDevice(d);
                     cudaEventRecord(done[d], streams_[d]);
                     cudaSetDevice(0);
                     cudaStreamWaitEvent(streams_[0], done[d], 0);
                 }
             return step;
         });
    for (int d = 0; d < ranks(); ++d) {
        cudaEventDestroy(ready[d]);
        cudaEventDestroy(done[d]);
    }
    return ok;
}

}  // namespace strata::nccl
