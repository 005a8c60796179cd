#!/usr/bin/env bash
# `strata frameworks --json` on a complete, real PyTorch install (torch 2.3.0,
# CUDA 12.1, with its eleven pinned nvidia-* wheels: about 4.4 GB, of which
# ~3.5 GB are shared libraries), warm page cache, against what a person runs
# by hand for part of the same answer: `pip show -f` for torch and each
# nvidia-* wheel, and `cuobjdump --list-elf --list-ptx` on every shared
# library. strata also resolves each library the loader gives torch, judges
# every one for the target GPU and driver, and reads the CUDA build.
# hyperfine, several runs, medians and the ratio, in one run.
# Usage: bench/frameworks_real_torch.sh [BUILD_DIR] [SITE]
#   default SITE: the install scripts/setup --test makes in .cache/frameworks/torch23/site
source "$(dirname "$0")/preamble.sh" "$@"
site=${2:-$root/.cache/frameworks/torch23/site}
cuobjdump=$(command -v cuobjdump || echo "$root/.cache/tools/python/nvidia/cu13/bin/cuobjdump")
[ -x "$cuobjdump" ] || { echo "bench: cuobjdump not found (scripts/setup --test installs it)" >&2; exit 2; }
[ -f "$site/torch/version.py" ] || { echo "bench: no torch install at $site (scripts/setup --test)" >&2; exit 2; }
find "$site/torch" "$site/nvidia" -name '*.so*' -type f >"$out/files"
packages=$(ls "$site" | sed -n 's/^\(torch\|nvidia_[a-z0-9_]*\)-[0-9].*\.dist-info$/\1/p' | tr '_' '-' | tr '\n' ' ')
cat >"$out/manual.sh" <<SH
#!/bin/sh
PYTHONPATH="$site" python3 -m pip show -f $packages >/dev/null 2>&1
while read -r f; do "$cuobjdump" --list-elf --list-ptx "\$f" >/dev/null 2>&1; done <"$out/files"
SH
chmod +x "$out/manual.sh"
echo "torch 2.3.0 in $site: $(wc -l <"$out/files") shared libraries, $(du -sh "$site" | cut -f1)"
hyperfine --warmup 1 --runs "${RUNS:-5}" -N --ignore-failure --export-json "$out/results.json" \
  -n "strata frameworks --json" "$strata frameworks --json --site-packages $site --sm 9.0 --driver 550.54.15" \
  -n "pip show -f + cuobjdump per library" "$out/manual.sh" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
python3 "$root/bench/hyperfine_summary.py" "$out/results.json" 1000
