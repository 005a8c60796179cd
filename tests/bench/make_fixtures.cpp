// The program that wrote google_benchmark_base.json and _new.json with
// Debian's Google Benchmark 1.7.1 (BM_sum does twice the work in "new"):
//   g++ -O2 -DSLOWDOWN=1 make_fixtures.cpp -o base -lbenchmark -lpthread
//   g++ -O2 -DSLOWDOWN=2 make_fixtures.cpp -o new -lbenchmark -lpthread
//   ./base --benchmark_repetitions=8 --benchmark_min_time=0.02 \
//          --benchmark_out=google_benchmark_base.json --benchmark_out_format=json
// (and the same for new). Not built: the JSON files are the fixtures.
#include <benchmark/benchmark.h>

#include <cstring>
#include <numeric>
#include <vector>
static void BM_copy(benchmark::State& state) {
    std::vector<char> a(state.range(0)), b(state.range(0));
    for (auto _ : state) {
        std::memcpy(b.data(), a.data(), a.size());
        benchmark::DoNotOptimize(b.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_copy)->Arg(4096)->Arg(65536);
static void BM_sum(benchmark::State& state) {
    std::vector<int> v(state.range(0), 1);
    for (auto _ : state) {
        long s = 0;
        for (int rep = 0; rep < SLOWDOWN; ++rep) {
            s += std::accumulate(v.begin(), v.end(), 0L);
            benchmark::DoNotOptimize(s);
        }
    }
}
BENCHMARK(BM_sum)->Arg(16384);
BENCHMARK_MAIN();
