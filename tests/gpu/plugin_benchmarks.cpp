// Runs every built-in plugin's benchmarks once on GPU 0, in process: validate
// (output checked against the CPU), then 5 timed iterations on a stream of its
// own, printing GB/s and TFLOP/s from the declared bytes and FLOPs. A smoke run
// of the benchmark ABI until `strata bench` drives it; exit 77 without a GPU.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "gpu/gpu_available.h"
#include "strata/plugin.h"

namespace {

void log_to_stderr(void*, int32_t, strata_str message) {
    std::fprintf(stderr, "  log: %.*s\n", static_cast<int>(message.size), message.data);
}
void ignore_fact(void*, const strata_fact*) {}
void ignore_check(void*, const strata_check*) {}
void print_measurement(void*, const strata_measurement* m) {
    std::printf("    %.*s = %.3f %.*s\n", static_cast<int>(m->name.size), m->name.data, m->value,
                static_cast<int>(m->unit.size), m->unit.data);
}

std::string text(strata_str s) {
    return {s.data, s.size};
}

}  // namespace

int main(int argc, char** argv) {
    if (std::string reason = strata::test::gpu_unavailable_reason(); !reason.empty()) {
        std::printf("SKIPPED: no usable GPU (%s)\n", reason.c_str());
        return 77;
    }
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s PLUGIN_DIRECTORY\n", argv[0]);
        return 2;
    }
    strata_host_api host{};
    host.struct_size = sizeof host;
    host.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    host.abi_minor = STRATA_PLUGIN_ABI_MINOR;
    host.emit_fact = ignore_fact;
    host.emit_check = ignore_check;
    host.emit_measurement = print_measurement;
    host.log = log_to_stderr;
    cudaStream_t stream = nullptr;
    cudaStreamCreate(&stream);
    int failures = 0, ran = 0;
    for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
        void* handle = dlopen(entry.path().c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            std::printf("%s: cannot load: %s\n", entry.path().c_str(), dlerror());
            ++failures;
            continue;
        }
        auto entry_fn = reinterpret_cast<strata_plugin_entry_fn>(dlsym(handle, STRATA_PLUGIN_ENTRY_SYMBOL));
        const strata_plugin_descriptor* d = entry_fn ? entry_fn() : nullptr;
        for (size_t i = 0; d && i < d->benchmark_count; ++i) {
            const strata_benchmark& b = d->benchmarks[i];
            std::printf("%s %s [%s]\n", text(d->name).c_str(), text(b.name).c_str(),
                        text(b.parameters).c_str());
            if (b.validate && b.validate(&host, stream) != STRATA_TASK_OK) {
                std::printf("  validation failed\n");
                ++failures;
                continue;
            }
            double ms = 0;
            constexpr uint64_t iterations = 5;
            if (b.run(&host, stream, iterations, &ms) != STRATA_TASK_OK || ms <= 0) {
                std::printf("  run failed\n");
                ++failures;
                continue;
            }
            double seconds = ms / 1e3 / iterations;
            std::printf("  %.3f ms/iteration, %.1f GB/s, %.2f TFLOP/s\n", ms / iterations,
                        b.bytes_per_iteration / seconds / 1e9, b.flops_per_iteration / seconds / 1e12);
            ++ran;
        }
    }
    std::printf("%d benchmark(s) ran, %d failed\n", ran, failures);
    return failures == 0 && ran > 0 ? 0 : 1;
}
