#!/usr/bin/env bash
# scripts/setup on a disk too small for the framework installs: each is left
# out by name (on stdout and in .cache/frameworks/left-out), nothing is
# half-installed, and setup itself succeeds, so the rest of the suite runs.
# Usage: setup_disk_budget.sh SOURCE_DIR
# The tools setup installs first are borrowed from SOURCE_DIR/.cache (linked,
# not copied); the framework installs are never attempted, so no network is used.
set -euo pipefail
source_dir=$1
for tool in tools wheels junit frameworks/jax; do
  if [ ! -e "$source_dir/.cache/$tool" ]; then
    echo "SKIPPED: $source_dir/.cache/$tool is missing (run scripts/setup --test first)"
    exit 77
  fi
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/scripts" "$scratch/.cache/frameworks"
cp "$source_dir/scripts/setup" "$scratch/scripts/"
for tool in tools wheels junit frameworks/jax; do
  ln -s "$source_dir/.cache/$tool" "$scratch/.cache/$tool"
done
echo "stale line from an earlier run" >"$scratch/.cache/frameworks/left-out"

# No disk is large enough for a 100 TB reserve.
output=$(STRATA_DISK_RESERVE_MIB=100000000 "$scratch/scripts/setup" --test 2>&1) || {
  echo "FAIL: setup exits non-zero when the installs do not fit:"; echo "$output"; exit 1; }
failures=0
for install in torch23 torch210 torch213 torch215 torchvision025 torchextras jaxtf cupy14 ort131 ort cupy jax12; do
  if ! grep -qE "^setup: left out $install \(about [0-9]+ GB\): [0-9]+ GB free, 97656 GB kept for the builds" <<<"$output"; then
    echo "FAIL: setup does not say it left out $install"; failures=$((failures + 1))
  fi
  if [ -e "$scratch/.cache/frameworks/$install" ]; then
    echo "FAIL: $install was started although it does not fit"; failures=$((failures + 1))
  fi
done
if grep -q "setup: installing" <<<"$output"; then
  echo "FAIL: setup installed something:"; grep "setup: installing" <<<"$output"; failures=$((failures + 1))
fi
lines=$(grep -c "^setup: left out " "$scratch/.cache/frameworks/left-out" || true)
if [ "$lines" != 12 ] || grep -q stale "$scratch/.cache/frameworks/left-out"; then
  echo "FAIL: left-out lists $lines installs (want 12, and nothing from an earlier run)"
  cat "$scratch/.cache/frameworks/left-out"; failures=$((failures + 1))
fi

# A reserve that is not a number of MiB is refused in one line, exit 2.
refused=$(STRATA_DISK_RESERVE_MIB=12GB "$scratch/scripts/setup" --test 2>&1) && status=0 || status=$?
if [ "$status" != 2 ] || [ "$refused" != "setup: STRATA_DISK_RESERVE_MIB must be a whole number of MiB, not '12GB'" ]; then
  echo "FAIL: STRATA_DISK_RESERVE_MIB=12GB gives exit $status and: $refused"; failures=$((failures + 1))
fi

if [ "$failures" = 0 ]; then
  echo "PASS: all 12 framework installs left out by name; setup succeeded; a malformed reserve is refused"
fi
exit $((failures > 0))
