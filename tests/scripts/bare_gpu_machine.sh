#!/usr/bin/env bash
# scripts/gpu-check up to its GPU steps on a system that has only what the GPU
# machine has: in a mount and network namespace (no network at all), the
# Debian packages that scripts/gpu-bundle carries are hidden (every regular
# file of theirs reads as empty, so a build that used them would fail), cuDNN
# and NCCL are hidden from the CUDA toolkit and given only in the layout of
# the nvidia-* pip wheels of a Python virtual environment (NCCL as its real
# wheel, cuDNN as the toolkit's files in the wheel's layout). Asserts that
# every plugin builds from the bundle and the wheels; that `strata doctor`,
# `strata bench` and `strata record` then run end to end, every worker and
# the benchmark runner starting from the bundle alone, each reaching its "no
# usable GPU" result (a runner that cannot load its libraries loses every
# benchmark of the first GPU run: issue #41); that the loader resolves every
# library of the runner and plugins; every gpu test skips because there is
# no GPU; at most 8 files come back; and the tree with its bundle stays
# under the 64 MiB the device tool carries. It builds with CMake 4 from
# PyPI, as the GPU image's Python environment carries it.
#
# Usage: tests/scripts/bare_gpu_machine.sh   (root; about 6 minutes on 2 cores)
# scripts/test runs it; it needs scripts/setup --test (python3-venv, the NCCL wheel).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(id -u)" != 0 ] || ! unshare -m -n true 2>/dev/null; then
  echo "SKIPPED: needs root and mount/network namespaces"; exit 77
fi
"$root/scripts/gpu-bundle" >/dev/null  # needs the network: before the namespace
nccl_wheel="$root/.cache/wheels/nccl/nvidia/nccl"
[ -f "$nccl_wheel/lib/libnccl.so.2" ] || { echo "no NCCL wheel in $nccl_wheel (scripts/setup --test)"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3 -m venv "$scratch/venv"
site=$("$scratch/venv/bin/python" -c 'import site; print(site.getsitepackages()[0])')
toolkit=$(readlink -f /usr/local/cuda)
hidden_packages="catch2 libcli11-dev nlohmann-json3-dev libbenchmark-dev libbenchmark1debian libzstd-dev liblz4-dev
                 libre2-dev libre2-9"

unshare -m -n --propagation private bash -s -- "$root" "$scratch" "$site" "$toolkit" "$nccl_wheel" \
  "$hidden_packages" <<'INNER'
set -euo pipefail
root=$1 scratch=$2 site=$3 toolkit=$4 nccl_wheel=$5 hidden_packages=$6
hide() { mount --bind /dev/null "$1"; }
# cuDNN into the wheel's layout first (bind mounts keep the original inode
# reachable there), then hidden from the toolkit.
mkdir -p "$site/nvidia/cudnn/lib" "$site/nvidia/cudnn/include" "$site/nvidia/nccl"
for dir in lib include; do
  for entry in "$toolkit/$dir"/libcudnn* "$toolkit/$dir"/cudnn*; do
    [ -e "$entry" ] || continue
    target="$site/nvidia/cudnn/$dir/$(basename "$entry")"
    if [ -L "$entry" ]; then ln -s "$(readlink "$entry")" "$target"
    elif [ -f "$entry" ]; then : >"$target"; mount --bind "$entry" "$target"; fi
  done
done
mount --bind "$nccl_wheel" "$site/nvidia/nccl"
for entry in "$toolkit"/lib/libcudnn* "$toolkit"/lib/libnccl* "$toolkit"/include/cudnn* "$toolkit"/include/nccl*; do
  if [ -f "$entry" ] && [ ! -L "$entry" ]; then hide "$entry"; fi
done
# The Debian packages the bundle carries: every regular file reads as empty
# (their symbolic links would lead to shared runtime files, left alone: the
# build must find the prefix's first, which the assertions below check).
for package in $hidden_packages; do
  dpkg -L "$package" | while read -r path; do
    if [ -f "$path" ] && [ ! -L "$path" ]; then hide "$path"; fi
  done
done
rm -rf "$root/build-gpu"
# The image's CMake is a pip package (CMake 4), not Debian's 3.25: that one first.
cmake4="$root/.cache/tools/cmake4/cmake/data/bin"
[ -x "$cmake4/cmake" ] && export PATH="$cmake4:$PATH"
# Two CPU cores here, sixteen there: the same steps with room to build.
OUT="$scratch/out" STRATA_PYTHON="$scratch/venv/bin/python" STRATA_GPU_BUDGET_S=2400 STRATA_GPU_BUILD_TIMEOUT_S=2000 \
  "$root/scripts/gpu-check" --until-gpu \
  >"$scratch/gpu-check.log" 2>&1 || { cat "$scratch/gpu-check.log"; exit 1; }
INNER

log="$scratch/gpu-check.log"
cat "$log"
failures=()
expect() { grep -q -- "$1" "$2" || failures+=("$3"); }
expect "built for 75: strata, the runner, driver cudart cublas cudnn nccl" "$log" "not every plugin was built"
expect "CUDNN: $site/nvidia/cudnn/lib/libcudnn.so.9" "$log" "cuDNN was not taken from the wheel layout"
expect "NCCL: $site/nvidia/nccl/lib/libnccl.so.2" "$log" "NCCL was not taken from its wheel"
expect "^cmake .*cmake4" "$log" "gpu-check did not build with CMake 4 (scripts/setup --test installs it)"
cache="$root/build-gpu/CMakeCache.txt"
for variable in Catch2_DIR benchmark_DIR nlohmann_json_DIR CLI11_DIR STRATA_ZSTD_LIBRARY STRATA_LZ4_LIBRARY \
                STRATA_ZSTD_INCLUDE_DIR STRATA_LZ4_INCLUDE_DIR; do
  grep -q "^$variable:.*=$root/.gpu-prefix/" "$cache" || failures+=("$variable is not from the bundle: $(grep "^$variable:" "$cache")")
done
# doctor, bench and record, end to end from the bundle alone.
for plugin in cudart cublas cudnn nccl; do
  expect "^$plugin: benchmarks skipped: no usable GPU (no NVIDIA driver" "$log" \
    "strata bench: the $plugin runner did not start and say why nothing ran"
done
grep -qE "could not start|exited with|status 127" "$log" && failures+=("a worker or the runner could not start")
expect "^loader: every library of the runner, the plugins and the kernels resolves" "$log" \
  "the loader does not resolve every library of the runner and plugins"
expect "^/proc/driver/nvidia/version: absent" "$log" "step 1 does not say whether /proc/driver/nvidia/version exists"
expect "^kernel: .*sandbox: " "$log" "step 1 does not name the kernel and sandbox"
expect "^record: exit " "$log" "strata record did not run"
"$scratch/venv/bin/python" - "$scratch/out" <<'PY' || failures+=("doctor.json or record.json is not what a run without a GPU gives")
import json, sys
out = sys.argv[1]
doctor = json.load(open(f"{out}/doctor.json"))
states = {p["name"]: p["state"] for p in doctor["plugins"]}
want = {"driver", "cudart", "cublas", "cudnn", "nccl"}
assert {name for name, state in states.items() if state == "loaded"} >= want, states
record = json.load(open(f"{out}/record.json"))
measurement = record["strata_record"]["measurement"]
assert not measurement["measured"] and "no usable GPU" in measurement["reason"], measurement
assert {p["name"] for p in record["strata_record"]["doctor"]["plugins"] if p["state"] == "loaded"} >= want
PY
skipped=$(grep -c "SKIPPED: no usable GPU\|skipped: no usable GPU\|no usable GPU" "$log" || true)
grep -qE '100% tests passed|tests passed, 0 tests failed' "$log" || failures+=("the gpu tests did not all pass or skip")
ctest=ctest  # the CMake that generated build-gpu reads it
[ -x "$root/.cache/tools/cmake4/cmake/data/bin/ctest" ] && ctest="$root/.cache/tools/cmake4/cmake/data/bin/ctest"
gpu_tests=$("$ctest" --test-dir "$root/build-gpu" -N -L gpu | grep -cE 'Test +#[0-9]+: gpu_')
[ "$gpu_tests" -ge 4 ] || failures+=("only $gpu_tests gpu tests were built (kernels, plugins, doctor, bench expected)")
[ "$(grep -cE 'Test +#[0-9]+: gpu_[a-z_]+ .*Skipped' "$log")" -eq "$gpu_tests" ] || failures+=("not all $gpu_tests gpu tests skipped")
[ "$skipped" -ge "$gpu_tests" ] || failures+=("the skips do not say 'no usable GPU'")
files=$(ls "$scratch/out" | wc -l)
[ "$files" -le 8 ] || failures+=("$files files in OUT, at most 8 may come back")
size=$(( $(git -C "$root" ls-files -z | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1) + $(du -sb "$root/.gpu-bundle" | cut -f1) ))
[ "$size" -lt $((64 << 20)) ] || failures+=("tree and bundle are $size bytes, over 64 MiB")
echo "tree + .gpu-bundle: $((size >> 20)) MiB; files back: $files"
if [ ${#failures[@]} -gt 0 ]; then printf 'FAILED: %s\n' "${failures[@]}"; exit 1; fi
echo "bare GPU machine: every plugin built from the bundle and the wheels; every gpu test skipped without a GPU"
