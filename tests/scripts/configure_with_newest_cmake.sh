#!/usr/bin/env bash
# Usage: configure_with_newest_cmake.sh SOURCE_DIR CMAKE_PYTHON_DIR
# Configures strata, tests included, with CMake 4 from PyPI (the CMake a GPU
# image's Python environment is likely to carry; scripts/setup --test installs
# it into CMAKE_PYTHON_DIR). CMake 4 moved CUDAToolkit_LIBRARY_DIR to
# targets/<arch>/lib, where cuDNN and NCCL copied into the toolkit's lib64 are
# not: both plugins silently dropped out, and the tests' dependency on them
# then stopped the configure. Each plugin the toolkit holds must still be found.
set -euo pipefail
source_dir=$1 cmake_dir=$2
cmake="$cmake_dir/cmake/data/bin/cmake"
[ -x "$cmake" ] || { echo "no CMake in $cmake_dir (run scripts/setup --test)"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$cmake" --version | head -1
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if ! "$cmake" -S "$source_dir" -B "$scratch" "${generator[@]}" -DSTRATA_BUILD_TESTS=ON \
    -DSTRATA_CUDA_ARCHITECTURES="90-real;75" >"$scratch.log" 2>&1; then
  cat "$scratch.log"; rm -f "$scratch.log"
  echo "FAIL: strata does not configure with $("$cmake" --version | head -1)"
  exit 1
fi
status=0
toolkit=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
for library in CUDNN:libcudnn.so.9 NCCL:libnccl.so.2; do
  variable=STRATA_${library%%:*}_LIBRARY soname=${library#*:}
  compgen -G "$toolkit/lib*/$soname" >/dev/null || continue  # not in this toolkit: nothing to find
  found=$(sed -n "s/^$variable:FILEPATH=//p" "$scratch/CMakeCache.txt")
  if [ -z "$found" ] || [[ "$found" == *NOTFOUND ]]; then
    echo "FAIL: the toolkit has $soname but $variable is '$found': its plugin is left out"
    status=1
  else
    echo "ok: $variable=$found"
  fi
done
rm -f "$scratch.log"
exit $status
