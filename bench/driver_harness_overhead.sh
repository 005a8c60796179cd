#!/usr/bin/env bash
# What the harness adds to a driver benchmark: the driver plugin's
# sync/stream_synchronize through `strata bench`, under the fault-injection
# libcuda with no delays (its cuStreamSynchronize returns at once, so the
# body is a no-op), next to the loop a person would otherwise write: a C
# program that dlopens the same libcuda and times the same call with a
# steady clock. Per-iteration time of each, medians of several runs, the
# difference (the harness's cost per iteration) and the ratio, in one run.
# Usage: bench/driver_harness_overhead.sh [BUILD_DIR]   (default: build)
source "$(dirname "$0")/preamble.sh" "$@"
fake="$build/tests/fakes/lib"
[ -e "$fake/libcuda.so.1" ] || { echo "bench: $fake/libcuda.so.1 not built (scripts/build -DSTRATA_BUILD_TESTS=ON)" >&2; exit 2; }
runs=${STRATA_BENCH_RUNS:-5}

cat >"$out/direct.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
typedef int (*init_fn)(unsigned);
typedef int (*sync_fn)(void*);
int main(void) {
    void* cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cuda) return 2;
    init_fn init = (init_fn)dlsym(cuda, "cuInit");
    sync_fn sync = (sync_fn)dlsym(cuda, "cuStreamSynchronize");
    if (!init || !sync || init(0) != 0) return 2;
    const long n = 2000000;
    struct timespec a, b;
    for (long i = 0; i < n / 10; ++i) sync(0); /* warm-up */
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; ++i)
        if (sync(0) != 0) return 1;
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
    return 0;
}
C
cc -O2 -o "$out/direct" "$out/direct.c" -ldl

harness=() direct=()
for run in $(seq "$runs"); do
  LD_LIBRARY_PATH="$fake" STRATA_FAKE_CUDA="kernels_run=1" HOME="$out" \
    "$strata" bench --filter '^driver/sync/stream_synchronize' --repetitions 10 --out "$out/h$run.json" >/dev/null 2>&1
  harness+=("$(python3 -c '
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
times = [b["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
         for b in doc["benchmarks"] if b.get("run_type") == "iteration" and not b.get("error_occurred")]
print(statistics.median(times))' "$out/h$run.json")")
  direct+=("$(LD_LIBRARY_PATH="$fake" "$out/direct")")
done

python3 - "${harness[*]}" "${direct[*]}" <<'PY'
import statistics, sys
harness = [float(x) for x in sys.argv[1].split()]
direct = [float(x) for x in sys.argv[2].split()]
h, d = statistics.median(harness), statistics.median(direct)
print(f"{'per iteration (median of %d runs)' % len(harness):<44} {'ns':>8}")
print(f"{'strata bench: driver/sync/stream_synchronize':<44} {h:8.1f}")
print(f"{'a C loop over the same call':<44} {d:8.1f}")
print(f"harness overhead: {h - d:+.1f} ns per iteration ({h / d:.2f}x the bare call)")
PY
