// strata-bench-runner: a worker, started exactly like `strata worker`
// (`worker --plugin PATH --task bench`), that can also run benchmarks. It is
// a separate program because it links the CUDA runtime and Google Benchmark,
// which the strata binary must not: strata has to start on machines without
// either. Settings come through STRATA_BENCH_* (bench_settings.h).
#include <cstdio>
#include <cstring>
#include <string>

#include "harness.h"
#include "jit_proof.h"
#include "worker/worker_main.h"

int main(int argc, char** argv) {
    std::string plugin, task;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--plugin") == 0)
            plugin = argv[++i];
        else if (std::strcmp(argv[i], "--task") == 0)
            task = argv[++i];
    }
    auto parsed = strata::parse_worker_task(task);
    if (argc < 2 || std::strcmp(argv[1], "worker") != 0 || plugin.empty() || !parsed) {
        std::fprintf(stderr, "usage: strata-bench-runner worker --plugin PATH --task bench|describe|probe\n");
        return 2;
    }
    strata::bench::BenchSettings settings = strata::bench::settings_from_environment();
    return strata::run_worker(plugin, *parsed,
                              [&](const strata_plugin_descriptor& d, const strata_host_api& host) {
                                  // The JIT proof is driver work on installed files, not the plugin's.
                                  if (!settings.jit_list.empty())
                                      return strata::bench::run_jit_proof(host, settings);
                                  return strata::bench::run_benchmarks(d, host, settings);
                              });
}
