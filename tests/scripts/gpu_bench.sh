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
trap 'rm -rf "$out"' EXIT
"$strata" bench --level quick --repetitions 3 --out "$out/bench.json" --markdown
"${STRATA_PYTHON:-python3}" "$(dirname "$0")/check_bench_json.py" "$out/bench.json"
