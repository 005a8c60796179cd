#!/usr/bin/env bash
# What `strata doctor --no-selftest` costs with every built-in plugin (five
# workers: driver, cudart, cuBLAS, cuDNN, NCCL), next to what a person would
# otherwise run to learn the same library versions: a Python script that
# loads cudart, cuBLAS, cuBLASLt, cuDNN and NCCL with ctypes and asks each for
# its version (the core of PyTorch's collect_env and of most bug templates).
# strata additionally reports every file loaded, every other copy on the
# search path, cuDNN's sub-library checks and the cross-layer rules.
# Several runs each (hyperfine), medians, ratios, all in one run.
# Usage: bench/library_versions.sh [BUILD_DIR]   (default: build)
source "$(dirname "$0")/preamble.sh" "$@"
cat >"$out/versions.py" <<'PY'
import ctypes
def load(name):
    try:
        return ctypes.CDLL(name)
    except OSError as error:
        print(name, "missing:", error)
rt = load("libcudart.so.13")
if rt:
    v = ctypes.c_int(); rt.cudaRuntimeGetVersion(ctypes.byref(v)); print("cudart", v.value)
blas = load("libcublas.so.13")
if blas:
    parts = []
    for prop in range(3):
        v = ctypes.c_int(); blas.cublasGetProperty(prop, ctypes.byref(v)); parts.append(v.value)
    print("cublas", parts)
lt = load("libcublasLt.so.13")
if lt:
    lt.cublasLtGetVersion.restype = ctypes.c_size_t; print("cublasLt", lt.cublasLtGetVersion())
dnn = load("libcudnn.so.9")
if dnn:
    dnn.cudnnGetVersion.restype = ctypes.c_size_t; print("cudnn", dnn.cudnnGetVersion())
nccl = load("libnccl.so.2")
if nccl:
    v = ctypes.c_int(); nccl.ncclGetVersion(ctypes.byref(v)); print("nccl", v.value)
PY

hyperfine --warmup 3 --runs 20 -N --ignore-failure --export-json "$out/results.json" \
  -n "strata doctor --no-selftest (5 plugins)" "$strata doctor --no-selftest" \
  -n "strata doctor --no-selftest --json" "$strata doctor --no-selftest --json" \
  -n "python3 ctypes: 5 library versions" "python3 $out/versions.py" \
  >"$out/hyperfine.log" 2>&1 || { cat "$out/hyperfine.log"; exit 1; }

python3 "$root/bench/hyperfine_summary.py" "$out/results.json"
