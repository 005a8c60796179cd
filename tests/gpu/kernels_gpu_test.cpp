// strata's kernels on a real GPU, each verified against its CPU reference,
// and the image the runtime picked. Runs only where a GPU is present.
#include <cuda_runtime_api.h>

#include <catch2/catch.hpp>
#include <vector>

#include "strata_kernels/kernels.h"

namespace k = strata::kernels;

namespace {

template <typename T>
T* device_copy(const std::vector<T>& host) {
    T* out = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&out), host.size() * sizeof(T)) == cudaSuccess);
    REQUIRE(cudaMemcpy(out, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
    return out;
}

template <typename T>
std::vector<T> host_copy(const T* device, size_t n) {
    std::vector<T> out(n);
    REQUIRE(cudaMemcpy(out.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return out;
}

std::vector<float> pattern(size_t n, int seed) {
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<float>((i * 7 + seed * 13) % 101) / 50.f - 1.f;
    return out;
}

}  // namespace

TEST_CASE("STREAM kernels match the CPU", "[gpu]") {
    const size_t n = (1 << 22) + 17;  // not a multiple of the block size
    auto b = pattern(n, 1), c = pattern(n, 2);
    float *a_dev = device_copy(std::vector<float>(n, 0.f)), *b_dev = device_copy(b), *c_dev = device_copy(c);
    std::vector<float> want(n);
    SECTION("triad") {
        REQUIRE(k::launch_triad(a_dev, b_dev, c_dev, 3.f, n, nullptr) == 0);
        k::triad_reference(want.data(), b.data(), c.data(), 3.f, n);
    }
    SECTION("copy") {
        REQUIRE(k::launch_copy(a_dev, b_dev, n, nullptr) == 0);
        k::copy_reference(want.data(), b.data(), n);
    }
    SECTION("scale") {
        REQUIRE(k::launch_scale(a_dev, b_dev, 3.f, n, nullptr) == 0);
        k::scale_reference(want.data(), b.data(), 3.f, n);
    }
    SECTION("add") {
        REQUIRE(k::launch_add(a_dev, b_dev, c_dev, n, nullptr) == 0);
        k::add_reference(want.data(), b.data(), c.data(), n);
    }
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto got = host_copy(a_dev, n);
    auto worst = k::largest_error(got.data(), want.data(), n);
    INFO("index " << worst.index << ": got " << worst.got << ", want " << worst.want);
    CHECK(worst.error <= 1e-6);
    cudaFree(a_dev), cudaFree(b_dev), cudaFree(c_dev);
}

TEST_CASE("dot product matches the double-precision reference", "[gpu]") {
    const size_t n = 1 << 22;
    auto x = pattern(n, 3), y = pattern(n, 4);
    float *x_dev = device_copy(x), *y_dev = device_copy(y);
    float *scratch = device_copy(std::vector<float>(k::dot_scratch_floats())),
          *result = device_copy(std::vector<float>(1));
    REQUIRE(k::launch_dot(x_dev, y_dev, n, scratch, result, nullptr) == 0);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    double want = k::dot_reference(x.data(), y.data(), n);
    CHECK(host_copy(result, 1)[0] == Approx(want).epsilon(1e-4));
    cudaFree(x_dev), cudaFree(y_dev), cudaFree(scratch), cudaFree(result);
}

TEST_CASE("tiled SGEMM and tensor-core BF16 GEMM match the CPU", "[gpu]") {
    const int m = 192, n = 160,
              kk = 96;  // multiples of 16, not of the 16x16 SGEMM grid's blocks in every dim
    auto a = pattern(size_t{m} * kk, 5), b = pattern(size_t{kk} * n, 6);
    std::vector<float> want(size_t{m} * n);
    k::sgemm_reference(a.data(), b.data(), want.data(), m, n, kk);
    float *a_dev = device_copy(a), *b_dev = device_copy(b),
          *c_dev = device_copy(std::vector<float>(want.size()));
    REQUIRE(k::launch_sgemm(a_dev, b_dev, c_dev, m, n, kk, nullptr) == 0);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    auto got = host_copy(c_dev, want.size());
    CHECK(k::largest_error(got.data(), want.data(), want.size()).error <= 1e-4);

    cudaDeviceProp props{};
    cudaGetDeviceProperties(&props, 0);
    std::vector<uint16_t> a16(a.size()), b16(b.size());
    for (size_t i = 0; i < a.size(); ++i) a16[i] = k::float_to_bf16(a[i]);
    for (size_t i = 0; i < b.size(); ++i) b16[i] = k::float_to_bf16(b[i]);
    uint16_t *a16_dev = device_copy(a16), *b16_dev = device_copy(b16);
    int rc = k::launch_tensor_core_gemm(a16_dev, b16_dev, c_dev, m, n, kk, props.major, nullptr);
    if (props.major < 8) {
        CHECK(rc == cudaErrorNotSupported);
    } else {
        REQUIRE(rc == 0);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        k::bf16_gemm_reference(a16.data(), b16.data(), want.data(), m, n, kk);
        got = host_copy(c_dev, want.size());
        CHECK(k::largest_error(got.data(), want.data(), want.size()).error <= 1e-4);
    }
    cudaFree(a_dev), cudaFree(b_dev), cudaFree(c_dev), cudaFree(a16_dev), cudaFree(b16_dev);
}

TEST_CASE("the runtime loads native SASS where the build has it", "[gpu]") {
    cudaDeviceProp props{};
    cudaGetDeviceProperties(&props, 0);
    REQUIRE(k::launch_empty(nullptr) == 0);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    int binary = 0, ptx = 0;
    REQUIRE(k::loaded_image_versions(&binary, &ptx) == 0);
    // The binary version is always the device's own CC: SASS for it, or PTX JIT-compiled for it.
    CHECK(binary == props.major * 10 + props.minor);
    CHECK(ptx > 0);
}

TEST_CASE("the cold-cache flush reads every byte of its buffer and writes none of it", "[gpu]") {
    // Twice an H200's 60 MB L2 plus an odd tail of 16-byte words.
    const size_t bytes = (size_t{120} << 20) + 16 * 7;
    std::vector<unsigned> words(bytes / sizeof(unsigned));
    for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<unsigned>(i * 2654435761u);
    unsigned* buffer = device_copy(words);
    unsigned* sink = device_copy(std::vector<unsigned>{0});
    REQUIRE(k::launch_read_through(buffer, bytes, sink, nullptr) == 0);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(host_copy(sink, 1)[0] == k::read_through_reference(words.data(), bytes));
    CHECK(host_copy(buffer, words.size()) == words);  // a memset flush changed it
    cudaFree(buffer);
    cudaFree(sink);
}
