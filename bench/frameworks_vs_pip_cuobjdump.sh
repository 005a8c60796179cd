#!/usr/bin/env bash
# `strata frameworks` on a Python environment against what a person runs by
# hand for the same answer: `pip show -f` (version, requirements, files) and
# `cuobjdump --list-elf --list-ptx` over every shared library the package
# installed (architecture coverage). hyperfine, warm page cache, several runs,
# medians and the ratio, in one run. strata also judges the CUDA build, the
# driver and the loader's picks, which the manual way does not.
# Usage: bench/frameworks_vs_pip_cuobjdump.sh [BUILD_DIR] [VENV] [DISTRIBUTION]
#   default: the JAX CUDA plugin venv scripts/setup --test installs
source "$(dirname "$0")/preamble.sh" "$@"
venv=${2:-$root/.cache/frameworks/jax}
distribution=${3:-jax-cuda13-plugin}
cuobjdump=$(command -v cuobjdump || echo "$root/.cache/tools/python/nvidia/cu13/bin/cuobjdump")
[ -x "$cuobjdump" ] || { echo "bench: cuobjdump not found (scripts/setup --test installs it)" >&2; exit 2; }
[ -x "$venv/bin/python" ] || { echo "bench: no Python environment at $venv (scripts/setup --test)" >&2; exit 2; }
"$venv/bin/python" - "$distribution" >"$out/files" <<'PY'
import importlib.metadata as m, sys
for f in m.distribution(sys.argv[1]).files or []:
    if str(f).endswith(".so") or ".so." in str(f):
        print(f.locate())
PY
echo "$distribution in $venv: $(wc -l <"$out/files") shared libraries"
cat >"$out/manual.sh" <<SH
#!/bin/sh
"$venv/bin/python" -m pip show -f "$distribution" >/dev/null 2>&1
while read -r f; do "$cuobjdump" --list-elf --list-ptx "\$f" >/dev/null 2>&1; done <"$out/files"
SH
chmod +x "$out/manual.sh"
hyperfine --warmup 1 --runs "${RUNS:-10}" -N --ignore-failure --export-json "$out/results.json" \
  -n "strata frameworks --python" "$strata frameworks --json --python $venv/bin/python" \
  -n "pip show -f + cuobjdump per library" "$out/manual.sh" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
python3 "$root/bench/hyperfine_summary.py" "$out/results.json"
