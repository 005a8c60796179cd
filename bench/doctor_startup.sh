#!/usr/bin/env bash
# How long `strata doctor` takes with no plugins on this host, next to what a
# person would otherwise run to get the same first answers: a shell that
# reads the kernel module version, lists /dev/nvidia* and asks ld.so.cache for
# libcuda, and Python's ctypes lookup of libcuda that environment reporters use.
# Several runs each (hyperfine), medians, ratios, all in one run.
# The framework layer asks the python3 on PATH for its search path, so the
# interpreter's start-up is part of the doctor's: the first row uses the
# system's /usr/bin/python3 (a fleet node), the second this shell's PATH (a
# pyenv shim adds ~100 ms of bash), the third names site-packages directly.
# Usage: bench/doctor_startup.sh [BUILD_DIR]   (default: build)
source "$(dirname "$0")/preamble.sh" "$@"

hyperfine --warmup 5 --runs 50 -N --ignore-failure --export-json "$out/results.json" \
  -n "strata doctor (no plugins; /usr/bin/python3)" \
     "env -u STRATA_PLUGIN_PATH -u VIRTUAL_ENV -u CONDA_PREFIX PATH=/usr/bin:/bin $strata doctor --no-builtin-plugins" \
  -n "strata doctor (no plugins; this PATH)" "env -u STRATA_PLUGIN_PATH $strata doctor --no-builtin-plugins" \
  -n "strata doctor (no plugins; --site-packages)" \
     "env -u STRATA_PLUGIN_PATH $strata doctor --no-builtin-plugins --site-packages $root" \
  -n "strata doctor --json (no plugins)" "env -u STRATA_PLUGIN_PATH $strata doctor --json --no-builtin-plugins" \
  -n "shell: version file + /dev + ldconfig" \
     "bash -c 'cat /proc/driver/nvidia/version; ls /dev/nvidia*; ldconfig -p | grep libcuda.so.1; true'" \
  -n "python3 ctypes.util.find_library(cuda)" \
     "python3 -c 'import ctypes.util; print(ctypes.util.find_library(\"cuda\"))'" \
  >"$out/hyperfine.log" 2>&1 || { cat "$out/hyperfine.log"; exit 1; }

python3 "$root/bench/hyperfine_summary.py" "$out/results.json" 100
