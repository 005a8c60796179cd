// A Google Benchmark program with asymptotic complexity rows (->Complexity()
// adds "_BigO" and "_RMS" aggregates, which have no real_time) and a user
// counter, built by the tests so that `strata compare` is checked against
// what Google Benchmark itself writes. SLOWDOWN makes BM_scan slower in a
// second build.
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

#ifndef SLOWDOWN
#define SLOWDOWN 1
#endif

static void BM_scan(benchmark::State& state) {
    std::vector<int> values(static_cast<size_t>(state.range(0)), 1);
    for (auto _ : state) {
        long sum = 0;
        for (int pass = 0; pass < SLOWDOWN; ++pass) {
            sum += std::accumulate(values.begin(), values.end(), 0L);
            benchmark::DoNotOptimize(sum);
        }
    }
    state.SetComplexityN(state.range(0));
    state.counters["elements"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_scan)->RangeMultiplier(4)->Range(1 << 10, 1 << 14)->Complexity(benchmark::oN);

// A name with a '|' (and a Markdown '*'), as parameterised names can have:
// the Markdown table must keep its columns.
static void BM_table_breaker(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
}
BENCHMARK(BM_table_breaker)->Name("BM_copy|bytes*2");

BENCHMARK_MAIN();
