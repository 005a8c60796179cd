#!/usr/bin/env bash
# How `strata compare` scales with what used to be quadratic: one benchmark
# with 8 repetitions against 2,000 / 20,000 (the exact Mann-Whitney U path),
# and 5,000 / 50,000 names (the name join). Several runs each (hyperfine),
# medians; the ratio of the large to the small case shows the growth (10x the
# input: about 10x the time when linear, 100x when quadratic). Google
# Benchmark's own compare.py is not packaged where strata is tested (nor in its
# PyPI sdist), so there is no third-party column.
# Usage: bench/compare_scale.sh [BUILD_DIR]   (default: build)
source "$(dirname "$0")/preamble.sh" "$@"
/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def rows(name, count, base):
    return [{"name": name, "run_name": name, "run_type": "iteration", "real_time": base + i % 7,
             "cpu_time": base, "time_unit": "ns", "iterations": 1} for i in range(count)]
def write(path, benchmarks):
    json.dump({"context": {}, "benchmarks": benchmarks}, open(f"{out}/{path}", "w"))
write("few.json", rows("BM_x", 8, 1000))
for n in (2000, 20000):
    write(f"reps-{n}.json", rows("BM_x", n, 1010))
for n in (5000, 50000):
    write(f"names-a-{n}.json", [r for i in range(n) for r in rows(f"BM_{i}", 2, 100)])
    write(f"names-b-{n}.json", [r for i in range(n) for r in rows(f"BM_{i}", 2, 101)])
PY
hyperfine --warmup 1 --runs 7 --export-json "$out/reps.json" \
  "$strata compare $out/few.json $out/reps-2000.json" "$strata compare $out/few.json $out/reps-20000.json" >/dev/null
hyperfine --warmup 1 --runs 5 --export-json "$out/names.json" \
  "$strata compare $out/names-a-5000.json $out/names-b-5000.json" \
  "$strata compare $out/names-a-50000.json $out/names-b-50000.json" >/dev/null
echo "== 8 repetitions against 2,000 and 20,000 (exact U test)"
/usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/reps.json"
echo
echo "== 5,000 and 50,000 benchmark names"
/usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/names.json"
