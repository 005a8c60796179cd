#include "collective.h"

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

Collectives::Collectives(size_t max_count, cudaStream_t home_stream) : max_count_(max_count) {
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

Collectives::~Collectives() {
    for (size_t d = 0; d < streams_.size(); ++d) {
        cudaSetDevice(static_cast<int>(d));
        if (own_stream_[d]) cudaStreamDestroy(streams_[d]);
    }
    for (ncclComm_t comm : comms_) ncclCommDestroy(comm);
    cudaSetDevice(home_);
}

bool Collectives::enqueue(Collective c, size_t total) {
    const int n = ranks();
    const RankCounts counts = rank_counts(c, total, n);
    const size_t part = n > 0 ? total / static_cast<size_t>(n) : 0;
    ncclResult_t rc = ncclSuccess;
    for (int d = 0; rc == ncclSuccess && d < n; ++d) {
        const float* in = send_[d].get();
        float* out = receive_[d].get();
        switch (c) {
            case Collective::all_reduce:
                rc = ncclAllReduce(in, out, counts.send, ncclFloat, ncclSum, comms_[d], streams_[d]);
                break;
            case Collective::all_gather:
                rc = ncclAllGather(in, out, counts.send, ncclFloat, comms_[d], streams_[d]);
                break;
            case Collective::reduce_scatter:
                rc = ncclReduceScatter(in, out, counts.receive, ncclFloat, ncclSum, comms_[d], streams_[d]);
                break;
            case Collective::broadcast:
                rc = ncclBroadcast(in, out, counts.send, ncclFloat, 0, comms_[d], streams_[d]);
                break;
            case Collective::reduce:
                rc = ncclReduce(in, out, counts.send, ncclFloat, ncclSum, 0, comms_[d], streams_[d]);
                break;
            case Collective::all_to_all:
                for (int peer = 0; rc == ncclSuccess && peer < n; ++peer) {
                    rc = ncclSend(in + peer * part, part, ncclFloat, peer, comms_[d], streams_[d]);
                    if (rc == ncclSuccess)
                        rc = ncclRecv(out + peer * part, part, ncclFloat, peer, comms_[d], streams_[d]);
                }
                break;
            case Collective::send_recv:
                rc = ncclSend(in, counts.send, ncclFloat, (d + 1) % n, comms_[d], streams_[d]);
                if (rc == ncclSuccess)
                    rc = ncclRecv(out, counts.receive, ncclFloat, (d + n - 1) % n, comms_[d], streams_[d]);
                break;
        }
    }
    if (rc != ncclSuccess)
        last_error_ = std::string("nccl ") + collective_name(c) + ": " + ncclGetErrorString(rc);
    return rc == ncclSuccess;
}

bool Collectives::run(Collective c, size_t total) {
    if (!error_.empty()) {
        last_error_ = error_;
        return false;
    }
    if (total > max_count_) {
        last_error_ = std::string(collective_name(c)) + " of " + std::to_string(total) +
                      " floats on buffers of " + std::to_string(max_count_);
        return false;
    }
    if (ncclResult_t rc = ncclGroupStart(); rc != ncclSuccess) {
        last_error_ = std::string("ncclGroupStart: ") + ncclGetErrorString(rc);
        return false;
    }
    bool enqueued = enqueue(c, total);
    ncclResult_t end = ncclGroupEnd();
    if (enqueued && end != ncclSuccess)
        last_error_ = std::string("nccl ") + collective_name(c) + ": " + ncclGetErrorString(end);
    return enqueued && end == ncclSuccess;
}

double Collectives::moved_bytes(Collective c, size_t total) const {
    RankCounts counts = rank_counts(c, total, ranks());
    size_t elements = c == Collective::all_gather ? counts.receive : counts.send;
    return static_cast<double>(elements) * sizeof(float);
}

Collectives::Check Collectives::verify(Collective c, size_t total) {
    Check out;
    const int n = ranks();
    const RankCounts counts = rank_counts(c, total, n);
    const size_t part = n > 0 ? total / static_cast<size_t>(n) : 0;
    auto base = plugin::input_pattern(max_count_, 9);
    const double sum_of_ranks = n * (n + 1) / 2.0;  // of the factors r + 1
    bool first = true;
    for (int d = 0; d < n; ++d) {
        if (c == Collective::reduce && d != 0) continue;  // only the root receives
        cudaSetDevice(d);
        std::vector<float> got;
        cudaError_t rc = cudaStreamSynchronize(streams_[d]);
        if (rc == cudaSuccess) rc = receive_[d].download(got);
        if (rc != cudaSuccess) {
            out.problem = "GPU " + std::to_string(d) + ": " + plugin::cuda_error_text(rc);
            break;
        }
        for (size_t i = 0; i < counts.receive && i < got.size(); ++i) {
            double want = 0;
            switch (c) {
                case Collective::all_reduce:
                case Collective::reduce: want = base[i] * sum_of_ranks; break;
                case Collective::all_gather: want = base[i % part] * static_cast<double>(i / part + 1); break;
                case Collective::reduce_scatter: want = base[d * part + i] * sum_of_ranks; break;
                case Collective::broadcast: want = base[i]; break;
                case Collective::all_to_all:
                    want = base[d * part + i % part] * static_cast<double>(i / part + 1);
                    break;
                case Collective::send_recv: want = base[i] * static_cast<double>((d + n - 1) % n + 1); break;
            }
            double error = plugin::relative_error(got[i], want);
            if (error > out.error || first) out = {error, d, i, got[i], want, {}};
            first = false;
        }
    }
    cudaSetDevice(home_);
    return out;
}

bool Collectives::time(Collective c, size_t total, uint64_t iterations, double* elapsed_ms) {
    if (!error_.empty()) {
        last_error_ = error_;
        return false;
    }
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
                                          bool step = run(c, total);
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
