#include "kernel_selftest.h"

#include <cuda_runtime_api.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <vector>

#include "cuda_helpers.h"
#include "strata_kernels/kernels.h"

namespace strata::cudart {

namespace {

namespace k = strata::kernels;

std::string error_text(int rc) {
    return plugin::cuda_error_text(static_cast<cudaError_t>(rc));
}

using plugin::DeviceBuffer;
using plugin::input_pattern;

struct KernelResult {
    std::string name;
    bool ok = false;
    std::string detail;  // error, or "largest error 1e-7 at [12]"
};

KernelResult compare(const std::string& name, const std::vector<float>& got, const std::vector<float>& want,
                     double tolerance) {
    k::Mismatch worst = k::largest_error(got.data(), want.data(), want.size());
    char text[160];
    std::snprintf(text, sizeof text, "largest error %.3g at [%zu] (got %.9g, expected %.9g)", worst.error,
                  worst.index, worst.got, worst.want);
    return {name, worst.error <= tolerance, text};
}

// Runs `launch` and, if it and the copies succeed, compares with `want`.
KernelResult run_elementwise(const std::string& name, size_t n, double tolerance,
                             const std::function<int(float*, const float*, const float*)>& launch,
                             const std::vector<float>& b, const std::vector<float>& c,
                             const std::vector<float>& want) {
    DeviceBuffer<float> a_dev(n), b_dev(n), c_dev(n);
    if (a_dev.status() || b_dev.status() || c_dev.status()) return {name, false, "cudaMalloc failed"};
    b_dev.upload(b);
    c_dev.upload(c);
    int rc = launch(a_dev.get(), b_dev.get(), c_dev.get());
    if (rc == 0) rc = cudaDeviceSynchronize();
    if (rc != 0) return {name, false, error_text(rc)};
    std::vector<float> got;
    if (int copy = a_dev.download(got)) return {name, false, error_text(copy)};
    return compare(name, got, want, tolerance);
}

std::vector<KernelResult> run_all(int cc_major, const plugin::Reporter& report, const std::string& gpu) {
    std::vector<KernelResult> results;
    constexpr size_t n = 1 << 22;
    constexpr float s = 3.0f;
    auto b = input_pattern(n, 1), c = input_pattern(n, 2);
    std::vector<float> want(n);
    k::copy_reference(want.data(), b.data(), n);
    results.push_back(run_elementwise(
        "copy", n, 0,
        [&](float* a, const float* bb, const float*) { return k::launch_copy(a, bb, n, nullptr); }, b, c,
        want));
    k::scale_reference(want.data(), b.data(), s, n);
    results.push_back(run_elementwise(
        "scale", n, 1e-6,
        [&](float* a, const float* bb, const float*) { return k::launch_scale(a, bb, s, n, nullptr); }, b, c,
        want));
    k::add_reference(want.data(), b.data(), c.data(), n);
    results.push_back(run_elementwise(
        "add", n, 1e-6,
        [&](float* a, const float* bb, const float* cc) { return k::launch_add(a, bb, cc, n, nullptr); }, b,
        c, want));
    k::triad_reference(want.data(), b.data(), c.data(), s, n);
    results.push_back(run_elementwise(
        "triad", n, 1e-6,
        [&](float* a, const float* bb, const float* cc) { return k::launch_triad(a, bb, cc, s, n, nullptr); },
        b, c, want));

    {  // dot: float partial sums against a double reference, within the bound of its summation order.
        DeviceBuffer<float> x(n), y(n), scratch(k::dot_scratch_floats()), result(1);
        x.upload(b);
        y.upload(c);
        int rc = k::launch_dot(x.get(), y.get(), n, scratch.get(), result.get(), nullptr);
        if (rc == 0) rc = cudaDeviceSynchronize();
        std::vector<float> got;
        if (rc == 0) rc = result.download(got);
        if (rc != 0) {
            results.push_back({"dot", false, error_text(rc)});
        } else {
            std::vector<float> expected = {static_cast<float>(k::dot_reference(b.data(), c.data(), n))};
            // compare() is already relative to |expected|: the tolerance is a
            // relative one (it was multiplied by |expected| a second time,
            // which let a result of 0 pass).
            KernelResult r = compare("dot", got, expected, k::dot_relative_tolerance(n));
            results.push_back(r);
        }
    }
    {  // SGEMM 256^3: the reference accumulates in double; float order differs by ~k ulps.
        constexpr int m = 256, nn = 256, kk = 256;
        auto a = input_pattern(size_t{m} * kk, 3), bm = input_pattern(size_t{kk} * nn, 4);
        std::vector<float> expected(size_t{m} * nn);
        k::sgemm_reference(a.data(), bm.data(), expected.data(), m, nn, kk);
        DeviceBuffer<float> a_dev(a.size()), b_dev(bm.size()), c_dev(expected.size());
        a_dev.upload(a);
        b_dev.upload(bm);
        int rc = k::launch_sgemm(a_dev.get(), b_dev.get(), c_dev.get(), m, nn, kk, nullptr);
        if (rc == 0) rc = cudaDeviceSynchronize();
        std::vector<float> got;
        if (rc == 0) rc = c_dev.download(got);
        results.push_back(rc ? KernelResult{"sgemm", false, error_text(rc)}
                             : compare("sgemm", got, expected, 1e-4));
    }
    if (k::tensor_core_supported(cc_major)) {  // BF16 inputs are exact; FP32 accumulation.
        constexpr int m = 128, nn = 128, kk = 64;
        std::vector<uint16_t> a(size_t{m} * kk), bm(size_t{kk} * nn);
        auto fa = input_pattern(a.size(), 5), fb = input_pattern(bm.size(), 6);
        for (size_t i = 0; i < a.size(); ++i) a[i] = k::float_to_bf16(fa[i]);
        for (size_t i = 0; i < bm.size(); ++i) bm[i] = k::float_to_bf16(fb[i]);
        std::vector<float> expected(size_t{m} * nn);
        k::bf16_gemm_reference(a.data(), bm.data(), expected.data(), m, nn, kk);
        DeviceBuffer<uint16_t> a_dev(a.size()), b_dev(bm.size());
        DeviceBuffer<float> c_dev(expected.size());
        a_dev.upload(a);
        b_dev.upload(bm);
        int rc =
            k::launch_tensor_core_gemm(a_dev.get(), b_dev.get(), c_dev.get(), m, nn, kk, cc_major, nullptr);
        if (rc == 0) rc = cudaDeviceSynchronize();
        std::vector<float> got;
        if (rc == 0) rc = c_dev.download(got);
        results.push_back(rc ? KernelResult{"tensor_core_bf16", false, error_text(rc)}
                             : compare("tensor_core_bf16", got, expected, 1e-4));
    }
    {  // triad bandwidth on 3 x 256 MiB with CUDA events: a quick figure, not the benchmark harness.
        constexpr size_t big = size_t{1} << 26;
        DeviceBuffer<float> a(big), bb(big), cc(big);
        cudaEvent_t start, stop;
        if (!a.status() && !bb.status() && !cc.status() && cudaEventCreate(&start) == cudaSuccess &&
            cudaEventCreate(&stop) == cudaSuccess) {
            k::launch_triad(a.get(), bb.get(), cc.get(), s, big, nullptr);  // warm-up
            constexpr int repeats = 10;
            cudaEventRecord(start);
            for (int i = 0; i < repeats; ++i) k::launch_triad(a.get(), bb.get(), cc.get(), s, big, nullptr);
            cudaEventRecord(stop);
            float ms = 0;
            if (cudaEventSynchronize(stop) == cudaSuccess &&
                cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms > 0)
                report.measurement(gpu + ".triad_gbps", 3.0 * sizeof(float) * big * repeats / (ms * 1e6),
                                   "GB/s");
            cudaEventDestroy(start);
            cudaEventDestroy(stop);
        }
    }
    {  // empty kernel: verified by completing; 1000 back-to-back launches give the launch rate.
        int rc = k::launch_empty(nullptr);
        if (rc == 0) rc = cudaDeviceSynchronize();
        if (rc == 0) {
            constexpr int launches = 1000;
            auto started = std::chrono::steady_clock::now();
            for (int i = 0; i < launches && rc == 0; ++i) rc = k::launch_empty(nullptr);
            if (rc == 0) rc = cudaDeviceSynchronize();
            double us =
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
            if (rc == 0) report.measurement(gpu + ".empty_launch_us", us / launches, "us");
        }
        results.push_back({"empty", rc == 0, rc ? error_text(rc) : "completed"});
    }
    return results;
}

// Architectures in a comma-separated list ("75,80,120").
std::vector<int> target_list(const char* list) {
    std::vector<int> out;
    std::string text = list;
    for (size_t pos = 0; pos < text.size();) {
        size_t end = text.find(',', pos);
        if (end == std::string::npos) end = text.size();
        out.push_back(std::atoi(text.substr(pos, end - pos).c_str()));
        pos = end + 1;
    }
    return out;
}

// PTX targets strata's kernels carry (from STRATA_CUDA_ARCHITECTURES), to know
// whether a forced JIT can work on a GPU: PTX for X runs on CC >= X.
bool has_ptx_for(int cc) {
    for (int target : target_list(STRATA_KERNEL_PTX_TARGETS))
        if (target <= cc) return true;
    return false;
}

// What cudaFuncGetAttributes says ran: binaryVersion is the SASS the runtime
// loaded, a SASS target of the build when it ran native code, the GPU's own
// CC when it JIT-compiled the PTX (ptxVersion then names that PTX).
std::string image_in_use(int binary, int ptx) {
    auto version = [](int v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); };
    for (int target : target_list(STRATA_KERNEL_SASS_TARGETS))
        if (target == binary) return "the runtime ran the build's SASS for " + version(binary);
    return "the runtime JIT-compiled the PTX for " + version(ptx) + " into SASS for " + version(binary);
}

// Runs triad on device 0 with CUDA_FORCE_PTX_JIT=1 in a child process (the
// driver reads the variable when it initialises, so the child must fork
// before this process touches CUDA). Returns "1 <binary> <ptx> <detail>" on
// success, "0 ..." on failure, "" if the child said nothing.
std::string run_forced_jit_child() {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return {};
    pid_t child = fork();
    if (child < 0) return {};
    if (child == 0) {
        close(pipe_fds[0]);
        setenv("CUDA_FORCE_PTX_JIT", "1", 1);
        constexpr size_t n = 1 << 20;
        auto b = input_pattern(n, 1), c = input_pattern(n, 2);
        std::vector<float> want(n);
        k::triad_reference(want.data(), b.data(), c.data(), 2.f, n);
        KernelResult r = run_elementwise(
            "triad", n, 1e-6,
            [&](float* a, const float* bb, const float* cc) {
                return k::launch_triad(a, bb, cc, 2.f, n, nullptr);
            },
            b, c, want);
        int binary = 0, ptx = 0;
        k::loaded_image_versions(&binary, &ptx);
        std::string line = std::string(r.ok ? "1" : "0") + " binaryVersion " + std::to_string(binary) +
                           ", ptxVersion " + std::to_string(ptx) + ": " + r.detail;
        (void)!write(pipe_fds[1], line.data(), line.size());
        _exit(0);
    }
    close(pipe_fds[1]);
    std::string text;
    char buffer[512];
    for (ssize_t got; (got = read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
        text.append(buffer, static_cast<size_t>(got));
    close(pipe_fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    return text;
}

void report_forced_jit(const plugin::Reporter& report, const std::string& answer, int cc) {
    bool ok = answer.size() > 2 && answer[0] == '1';
    bool expected = has_ptx_for(cc);
    strata_status verdict = ok ? STRATA_STATUS_PASS : expected ? STRATA_STATUS_FAIL : STRATA_STATUS_WARN;
    std::string summary =
        ok         ? "under CUDA_FORCE_PTX_JIT=1 GPU 0 JIT-compiled strata's PTX and triad verified"
        : expected ? "under CUDA_FORCE_PTX_JIT=1 the PTX path failed on GPU 0 although a PTX image applies"
                   : "under CUDA_FORCE_PTX_JIT=1 GPU 0 cannot run strata's kernels: their PTX targets only "
                     "newer GPUs "
                     "(expected with this STRATA_CUDA_ARCHITECTURES)";
    report.check("kernel.cudart.force_ptx_jit", STRATA_LAYER_KERNEL, verdict,
                 {summary, "child: " + (answer.size() > 2 ? answer.substr(2) : std::string("no answer")),
                  ok ? ""
                     : "add PTX for an older architecture (e.g. \"75\" rather than \"75-real\") if every GPU "
                       "must have a JIT fallback"});
}

}  // namespace

void selftest_kernels(const plugin::Reporter& report) {
    std::string forced_jit = run_forced_jit_child();
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess || count == 0) {
        report.check("kernel.cudart", STRATA_LAYER_KERNEL, STRATA_STATUS_SKIP,
                     {"no GPU to launch on: " + (rc ? error_text(rc) : std::string("0 devices"))});
        return;
    }
    for (int device = 0; device < count; ++device) {
        std::string gpu = "gpu" + std::to_string(device);
        cudaSetDevice(device);
        cudaDeviceProp props{};
        cudaGetDeviceProperties(&props, device);
        std::string label = "GPU " + std::to_string(device) + " (" + props.name + ", CC " +
                            std::to_string(props.major) + "." + std::to_string(props.minor) + ")";
        auto results = run_all(props.major, report, gpu);
        int binary = 0, ptx = 0;
        k::loaded_image_versions(&binary, &ptx);
        report.fact("kernel.cudart." + gpu + ".binary_version", binary, "cudaFuncGetAttributes");
        report.fact("kernel.cudart." + gpu + ".ptx_version", ptx, "cudaFuncGetAttributes");
        std::string evidence, failed;
        for (const KernelResult& r : results) {
            evidence +=
                (evidence.empty() ? "" : "\n") + r.name + ": " + (r.ok ? "ok, " : "FAILED, ") + r.detail;
            if (!r.ok && failed.empty()) failed = r.name + ": " + r.detail;
        }
        std::string image = image_in_use(binary, ptx);
        report.check("kernel.cudart.kernels", STRATA_LAYER_KERNEL,
                     failed.empty() ? STRATA_STATUS_PASS : STRATA_STATUS_FAIL,
                     {failed.empty() ? label + ": " + std::to_string(results.size()) +
                                           " kernels verified through the runtime; " + image
                                     : label + ": " + failed,
                      evidence + "\n" + image,
                      failed.empty()
                          ? ""
                          : "a kernel computed a wrong result: check `nvidia-smi -q` for Xid and ECC errors",
                      {"kernel.cudart." + gpu + ".binary_version"},
                      device});
    }
    cudaDeviceProp first{};
    cudaGetDeviceProperties(&first, 0);
    report_forced_jit(report, forced_jit, first.major * 10 + first.minor);
}

}  // namespace strata::cudart
