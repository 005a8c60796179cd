#include "kernel_benchmarks.h"

#include <array>
#include <cmath>
#include <memory>

#include "cuda_helpers.h"
#include "kept_state.h"
#include "output_samples.h"
#include "plugin_entry.h"
#include "strata_kernels/kernels.h"

namespace strata::cudart {

namespace {

namespace k = strata::kernels;

enum class Kernel { copy, triad, dot, sgemm, empty };

struct Config {
    Kernel kernel;
    size_t n;  // elements (STREAM, dot) or matrix side (SGEMM)
    const char* name;
    const char* parameters;
};

constexpr std::array<Config, 5> kConfigs = {{
    {Kernel::copy, size_t{1} << 26, "stream/copy", "n=67108864,dtype=f32"},
    {Kernel::triad, size_t{1} << 26, "stream/triad", "n=67108864,dtype=f32"},
    {Kernel::dot, size_t{1} << 26, "reduce/dot", "n=67108864,dtype=f32"},
    {Kernel::sgemm, 2048, "gemm/sgemm_tiled", "m=2048,n=2048,k=2048,dtype=f32"},
    {Kernel::empty, 0, "launch/empty", "grid=1,block=1"},
}};

constexpr float kScalar = 3.0f;

// Inputs and outputs of one benchmark, made on first use on the current device.
struct Buffers {
    plugin::DeviceBuffer<float> a, b, c, scratch, result;
    std::vector<float> b_host, c_host;
    cudaError_t error = cudaSuccess;  // of an allocation or upload: nothing may launch
};

plugin::KeptState<Buffers, kConfigs.size()> kept;

template <size_t I>
std::unique_ptr<Buffers> make_buffers() {
    const Config& config = kConfigs[I];
    auto out = std::make_unique<Buffers>();
    size_t elements = config.kernel == Kernel::sgemm ? config.n * config.n : config.n;
    if (elements > 0) {
        out->b_host = plugin::input_pattern(elements, 1);
        out->c_host = plugin::input_pattern(elements, 2);
        out->a = plugin::DeviceBuffer<float>(elements);
        out->b = plugin::DeviceBuffer<float>(elements);
        out->c = plugin::DeviceBuffer<float>(elements);
        for (cudaError_t rc : {out->a.status(), out->b.status(), out->c.status()})
            if (out->error == cudaSuccess) out->error = rc;
        if (out->error == cudaSuccess) out->error = out->b.upload(out->b_host);
        if (out->error == cudaSuccess) out->error = out->c.upload(out->c_host);
    }
    out->scratch = plugin::DeviceBuffer<float>(k::dot_scratch_floats());
    out->result = plugin::DeviceBuffer<float>(1);
    for (cudaError_t rc : {out->scratch.status(), out->result.status()})
        if (out->error == cudaSuccess) out->error = rc;
    return out;
}

template <size_t I>
Buffers& buffers() {
    return kept.get(I, make_buffers<I>);
}

template <size_t I>
bool launch(cudaStream_t stream) {
    const Config& config = kConfigs[I];
    Buffers& buf = buffers<I>();
    if (buf.error != cudaSuccess) return false;
    int n = static_cast<int>(config.n);
    switch (config.kernel) {
        case Kernel::copy: return k::launch_copy(buf.a.get(), buf.b.get(), config.n, stream) == 0;
        case Kernel::triad:
            return k::launch_triad(buf.a.get(), buf.b.get(), buf.c.get(), kScalar, config.n, stream) == 0;
        case Kernel::dot:
            return k::launch_dot(buf.b.get(), buf.c.get(), config.n, buf.scratch.get(), buf.result.get(),
                                 stream) == 0;
        case Kernel::sgemm:
            return k::launch_sgemm(buf.b.get(), buf.c.get(), buf.a.get(), n, n, n, stream) == 0;
        case Kernel::empty: return k::launch_empty(stream) == 0;
    }
    return false;
}

// Checks sampled outputs against the CPU (the full CPU SGEMM would take minutes).
template <size_t I>
strata_task_result validate(const strata_host_api* host, void* stream) {
    auto s = static_cast<cudaStream_t>(stream);
    if (cudaError_t rc = buffers<I>().error; rc != cudaSuccess) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR,
                                   std::string(kConfigs[I].name) +
                                       ": allocating or filling its buffers: " + plugin::cuda_error_text(rc));
        return STRATA_TASK_FAILED;
    }
    if (!launch<I>(s) || cudaStreamSynchronize(s) != cudaSuccess) return STRATA_TASK_FAILED;
    const Config& config = kConfigs[I];
    Buffers& buf = buffers<I>();
    double worst = 0;
    if (config.kernel == Kernel::copy || config.kernel == Kernel::triad || config.kernel == Kernel::sgemm) {
        std::vector<float> got;
        if (buf.a.download(got) != cudaSuccess) return STRATA_TASK_FAILED;
        size_t line = config.kernel == Kernel::sgemm ? config.n : 1;
        for (size_t i : plugin::output_samples(got.size(), 4096, line)) {
            double want = 0;
            if (config.kernel == Kernel::copy) want = buf.b_host[i];
            if (config.kernel == Kernel::triad) want = buf.b_host[i] + kScalar * buf.c_host[i];
            if (config.kernel == Kernel::sgemm) {
                size_t row = i / config.n, col = i % config.n;
                for (size_t x = 0; x < config.n; ++x)
                    want += double(buf.b_host[row * config.n + x]) * buf.c_host[x * config.n + col];
            }
            worst = std::max(worst, plugin::relative_error(got[i], want));
        }
    } else if (config.kernel == Kernel::dot) {
        std::vector<float> got;
        if (buf.result.download(got) != cudaSuccess) return STRATA_TASK_FAILED;
        double want = k::dot_reference(buf.b_host.data(), buf.c_host.data(), config.n);
        worst = plugin::relative_error(got[0], want);
    }
    // The dot product is off by its summation order's rounding (a lost block
    // is 1/1024 of the sum, which 1e-2 let pass); the element-wise kernels
    // are exact or one rounding off.
    double tolerance = config.kernel == Kernel::dot ? k::dot_relative_tolerance(config.n) : 1e-4;
    if (worst > tolerance) {
        plugin::Reporter(host).log(
            STRATA_LOG_ERROR, std::string(config.name) + ": largest relative error " + std::to_string(worst));
        return STRATA_TASK_FAILED;
    }
    return STRATA_TASK_OK;
}

template <size_t I>
strata_task_result run(const strata_host_api*, void* stream, uint64_t iterations, double* elapsed_ms) {
    auto s = static_cast<cudaStream_t>(stream);
    return plugin::time_on_stream(s, iterations, elapsed_ms, [&] { return launch<I>(s); })
               ? STRATA_TASK_OK
               : STRATA_TASK_FAILED;
}

double bytes_of(const Config& c) {
    switch (c.kernel) {
        case Kernel::copy: return 2.0 * 4 * c.n;
        case Kernel::triad: return 3.0 * 4 * c.n;
        case Kernel::dot: return 2.0 * 4 * c.n;
        case Kernel::sgemm: return 3.0 * 4 * c.n * c.n;
        case Kernel::empty: return 0;
    }
    return 0;
}

double flops_of(const Config& c) {
    switch (c.kernel) {
        case Kernel::triad: return 2.0 * c.n;
        case Kernel::dot: return 2.0 * c.n;
        case Kernel::sgemm: return 2.0 * c.n * c.n * c.n;
        default: return 0;
    }
}

}  // namespace

const strata_benchmark* kernel_benchmarks(size_t* count) {
    return plugin::benchmark_table<kConfigs.size()>(count, [](auto index) {
        constexpr size_t I = decltype(index)::value;
        auto out = plugin::abi_struct<strata_benchmark>();
        out.name = plugin::view(kConfigs[I].name);
        out.parameters = plugin::view(kConfigs[I].parameters);
        out.bytes_per_iteration = bytes_of(kConfigs[I]);
        out.flops_per_iteration = flops_of(kConfigs[I]);
        out.validate = validate<I>;
        out.run = run<I>;
        return out;
    });
}

void release_kernel_benchmarks(const plugin::Reporter&) {
    kept.release();
}

}  // namespace strata::cudart
