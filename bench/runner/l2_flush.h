// The cold-cache flush before each cold run: on every GPU the benchmark's
// work touches, a kernel reads twice that GPU's L2 from a buffer written
// once, so what the L2 holds afterwards is clean and unrelated. A collective
// runs on every GPU of the node, so all of them are flushed, not only the
// one the runner was given.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace strata::bench {

class L2Flush {
public:
    // `home` is flushed on `stream`, in order with the timed run; every other
    // device in `devices` on a stream of its own, waited for in flush().
    L2Flush(int home, cudaStream_t stream, const std::vector<int>& devices);
    ~L2Flush();
    L2Flush(const L2Flush&) = delete;
    L2Flush& operator=(const L2Flush&) = delete;

    const std::string& error() const { return error_; }  // empty when every buffer exists
    void flush();

private:
    struct PerDevice {
        int device = 0;
        cudaStream_t stream = nullptr;
        bool own_stream = false;
        void* buffer = nullptr;
        size_t bytes = 0;
        unsigned* sink = nullptr;
    };
    std::vector<PerDevice> devices_;
    int home_ = 0;
    std::string error_;
};

}  // namespace strata::bench
