#!/usr/bin/env bash
# On a GPU machine: `strata bench --level quick` runs every plugin's
# benchmarks and writes strict Google Benchmark JSON with both modes, the
# derived counters and strata's record in context. Exit 77 (skip) without a GPU.
set -euo pipefail
strata=$1
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no usable GPU (nvidia-smi -L fails or is absent)"
    exit 77
fi
out=$(mktemp -d)
# STRATA_GPU_BENCH_OUT keeps the results (scripts/gpu-check brings them back).
trap '[ -n "${STRATA_GPU_BENCH_OUT:-}" ] && cp "$out/bench.json" "$STRATA_GPU_BENCH_OUT"; rm -rf "$out"' EXIT
"$strata" bench --level quick --repetitions 3 --out "$out/bench.json" --markdown
"${STRATA_PYTHON:-python3}" - "$out/bench.json" <<'PY'
import json, sys
def reject(token):
    raise ValueError(f"non-finite number {token} in strict JSON")
document = json.load(open(sys.argv[1]), parse_constant=reject)
names = [b["name"] for b in document["benchmarks"] if b.get("run_type") == "iteration"]
problems = []
if not any("/mode:cold/" in n for n in names): problems.append("no cold results")
if not any("/mode:hot/" in n for n in names): problems.append("no hot results")
triad = [b for b in document["benchmarks"] if "stream/triad" in b["name"] and "percent_of_peak_bandwidth" in b]
if not triad: problems.append("no stream/triad result with percent_of_peak_bandwidth")
if "environment" not in document["context"].get("strata", {}): problems.append("no strata environment in context")
for b in document["benchmarks"]:
    if b.get("error_occurred"): problems.append(f'{b["name"]}: {b.get("error_message")}')
for b in triad:
    print(f'{b["name"]}: {b["percent_of_peak_bandwidth"]:.1f}% of peak bandwidth')
if problems:
    print("FAILED:\n  " + "\n  ".join(problems)); sys.exit(1)
PY
