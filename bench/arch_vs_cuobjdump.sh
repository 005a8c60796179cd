#!/usr/bin/env bash
# `strata arch --json` over every shared library in the CUDA toolkit's library
# folder, against `cuobjdump --list-elf --list-ptx` over the same files (one
# call per file, as cuobjdump takes one), in one run: hyperfine, warm page
# cache, several runs, medians and the ratio.
# Usage: bench/arch_vs_cuobjdump.sh [BUILD_DIR] [LIB_DIR]
source "$(dirname "$0")/preamble.sh" "$@"
libdir=${2:-/usr/local/cuda/lib64}
cuobjdump=$(command -v cuobjdump || echo "$root/.cache/tools/python/nvidia/cu13/bin/cuobjdump")
[ -x "$cuobjdump" ] || { echo "bench: cuobjdump not found (scripts/setup --test installs it)" >&2; exit 2; }
# Real files only: the .so and .so.N names are symlinks to them.
find -L "$libdir" -maxdepth 1 -name '*.so*' -type f | sort -u | while read -r f; do readlink -f "$f"; done | sort -u >"$out/files"
count=$(wc -l <"$out/files")
bytes=$(xargs du -cb <"$out/files" | tail -1 | cut -f1)
echo "$count shared libraries, $((bytes / 1048576)) MiB, in $libdir"
cat >"$out/cuobjdump.sh" <<SH
#!/bin/sh
while read -r f; do "$cuobjdump" --list-elf --list-ptx "\$f" >/dev/null 2>&1; done <"$out/files"
SH
chmod +x "$out/cuobjdump.sh"
hyperfine --warmup 1 --runs "${RUNS:-5}" -N --ignore-failure --export-json "$out/results.json" \
  -n "strata arch --json" "sh -c '$strata arch --json \$(cat $out/files) >/dev/null'" \
  -n "cuobjdump --list-elf --list-ptx" "$out/cuobjdump.sh" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
python3 - "$out/results.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
s, c = (statistics.median(x["times"]) for x in r)
print(f"{'tool':34} {'median s':>9} {'min s':>7} {'max s':>7}")
for x in r:
    print(f"{x['command']:34} {statistics.median(x['times']):9.3f} {min(x['times']):7.3f} {max(x['times']):7.3f}")
print(f"\nstrata arch is {c / s:.1f}x faster than cuobjdump (median of {len(r[0]['times'])} runs; goal: 20x)")
PY
