// The GPU, context and stream a driver-API plugin's benchmarks run on
// (STRATA_BENCHMARKS_DRIVER_API), made through libcuda alone: the CUDA
// runtime is never initialised, so what those benchmarks time is the
// driver's own work, and they run under any libcuda, the fault-injection one
// included. libcuda is dlopened, never linked.
#pragma once

#include <string>

namespace strata::bench {

class DriverSession {
public:
    // Sets CUDA_CACHE_DISABLE=1 (a PTX load is then a real JIT), runs
    // cuInit, retains GPU `device`'s primary context, makes it current and
    // creates a stream; unavailable() says why when any step failed.
    explicit DriverSession(int device);
    ~DriverSession();
    DriverSession(const DriverSession&) = delete;
    DriverSession& operator=(const DriverSession&) = delete;

    // Why no benchmark can run ("no NVIDIA driver (...)"); empty when usable.
    const std::string& unavailable() const { return unavailable_; }
    void* stream() const { return stream_; }  // a CUstream
    const std::string& device_name() const { return name_; }
    const std::string& pci_bus_id() const { return bus_id_; }  // "" when unknown
    int compute_capability() const { return cc_; }             // 90 for 9.0; 0 when unknown
    int device_count() const { return count_; }                // GPUs CUDA sees

    // One cuModuleLoadDataEx of `image` (a cubin, PTX or fat binary) on the
    // session's context, unloaded again: the driver's JIT wall time
    // (CU_JIT_WALL_TIME) and, when it refuses, its error and JIT error log.
    struct ModuleLoad {
        bool loaded = false;
        double host_ms = 0;     // the call, on the host's steady clock
        double cpu_ms = 0;      // the process's CPU time in it (the JIT's threads included)
        float jit_wall_ms = 0;  // what the driver says its JIT took
        std::string error;      // "CUDA_ERROR_INVALID_PTX; JIT log: ptxas ..."
    };
    ModuleLoad load_module(const void* image) const;

private:
    struct Api;
    const Api* api_ = nullptr;
    int device_ = 0;
    bool retained_ = false;
    void* stream_ = nullptr;
    std::string name_;
    std::string bus_id_;
    int cc_ = 0;
    int count_ = 0;
    std::string unavailable_;
};

}  // namespace strata::bench
