// A Google Benchmark program that registers two different benchmarks under one
// name, which Google Benchmark allows and writes as two runs with the same
// run_name. `strata compare` must refuse such a file rather than pool the two
// runs' times into one series.
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

static void BM_fill(benchmark::State& state) {
    std::vector<int> values(1024);
    for (auto _ : state) {
        std::iota(values.begin(), values.end(), 0);
        benchmark::DoNotOptimize(values.data());
    }
}
static void BM_fill_larger(benchmark::State& state) {
    std::vector<int> values(16384);
    for (auto _ : state) {
        std::iota(values.begin(), values.end(), 0);
        benchmark::DoNotOptimize(values.data());
    }
}
BENCHMARK(BM_fill)->Name("BM_fill");
BENCHMARK(BM_fill_larger)->Name("BM_fill");

BENCHMARK_MAIN();
