#include "all_reduce.h"

#include "output_samples.h"

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

AllReduce::AllReduce(size_t max_count, cudaStream_t home_stream) : max_count_(max_count) {
    int devices = 0;
    if (cudaError_t rc = cudaGetDeviceCount(&devices); rc != cudaSuccess || devices == 0) {
        error_ = rc ? plugin::cuda_error_text(rc) : "no GPU";
        return;
    }
    cudaGetDevice(&home_);
    comms_.resize(devices);
    if (ncclResult_t rc = ncclCommInitAll(comms_.data(), devices, nullptr); rc != ncclSuccess) {
        comms_.clear();
        error_ = std::string("ncclCommInitAll: ") + ncclGetErrorString(rc);
        return;
    }
    for (int d = 0; d < devices; ++d) {
        cudaSetDevice(d);
        cudaStream_t stream = d == home_ ? home_stream : nullptr;
        bool own = !stream;
        if (own && cudaStreamCreate(&stream) != cudaSuccess) {
            error_ = "cudaStreamCreate failed on GPU " + std::to_string(d);
            break;
        }
        streams_.push_back(stream);
        own_stream_.push_back(own);
        send_.emplace_back(max_count);
        receive_.emplace_back(max_count);
        if (send_.back().status() || receive_.back().status()) {
            error_ = "cudaMalloc failed on GPU " + std::to_string(d);
            break;
        }
        send_.back().upload(rank_input(max_count, d));
    }
    cudaSetDevice(home_);
}

AllReduce::~AllReduce() {
    for (size_t d = 0; d < streams_.size(); ++d) {
        cudaSetDevice(static_cast<int>(d));
        if (own_stream_[d]) cudaStreamDestroy(streams_[d]);
    }
    for (ncclComm_t comm : comms_) ncclCommDestroy(comm);
    cudaSetDevice(home_);
}

bool AllReduce::run(size_t count) {
    if (!error_.empty()) return false;
    if (count > max_count_) {
        error_ =
            "all-reduce of " + std::to_string(count) + " floats on buffers of " + std::to_string(max_count_);
        return false;
    }
    ncclResult_t rc = ncclGroupStart();
    for (size_t d = 0; rc == ncclSuccess && d < comms_.size(); ++d)
        rc = ncclAllReduce(send_[d].get(), receive_[d].get(), count, ncclFloat, ncclSum, comms_[d],
                           streams_[d]);
    ncclResult_t end = ncclGroupEnd();
    if (rc == ncclSuccess) rc = end;
    if (rc != ncclSuccess) error_ = std::string("ncclAllReduce: ") + ncclGetErrorString(rc);
    return rc == ncclSuccess;
}

AllReduce::Check AllReduce::verify(size_t count) {
    Check out;
    auto base = plugin::input_pattern(count, 9);
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
        for (size_t i = 0; i < count && i < got.size(); ++i) {
            double want = base[i] * factor;
            double error = plugin::relative_error(got[i], want);
            if (error > out.error || (d == 0 && i == 0)) out = {error, d, i, got[i], want, {}};
        }
    }
    cudaSetDevice(home_);
    return out;
}

bool AllReduce::time(size_t count, uint64_t iterations, double* elapsed_ms) {
    if (!error_.empty()) return false;
    std::vector<cudaEvent_t> ready(ranks()), done(ranks());
    bool ok = true;
    for (int d = 0; d < ranks(); ++d) {
        cudaSetDevice(d);
        ok = ok && cudaEventCreateWithFlags(&ready[d], cudaEventDisableTiming) == cudaSuccess &&
             cudaEventCreateWithFlags(&done[d], cudaEventDisableTiming) == cudaSuccess;
    }
    cudaSetDevice(home_);
    // Every other GPU's stream starts once the home stream's start event is
    // recorded; the last iteration's completion on every GPU gates the home
    // stream's stop event.
    ok = ok && plugin::time_on_stream(streams_[home_], iterations, elapsed_ms,
                                      [&, first = true, left = iterations]() mutable {
                                          if (first) {
                                              first = false;
                                              cudaEventRecord(ready[home_], streams_[home_]);
                                              for (int d = 0; d < ranks(); ++d)
                                                  if (d != home_)
                                                      cudaStreamWaitEvent(streams_[d], ready[home_], 0);
                                          }
                                          bool step = run(count);
                                          if (--left == 0)
                                              for (int d = 0; d < ranks(); ++d) {
                                                  if (d == home_) continue;
                                                  cudaSetDevice(d);
                                                  cudaEventRecord(done[d], streams_[d]);
                                                  cudaSetDevice(home_);
                                                  cudaStreamWaitEvent(streams_[home_], done[d], 0);
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
