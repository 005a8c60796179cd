#!/usr/bin/env bash
# The .deb a GPU node installs: built by CPack from this build tree, its
# control fields and Depends satisfiable here, unpacked with dpkg-deb into a
# scratch root, and `strata` from there finds its runner and every plugin in
# their relative layout, runs doctor, and carries the deploy files.
# usage: deb_package.sh BUILD_DIR CPACK
set -euo pipefail
build=$1 cpack=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

(cd "$build" && "$cpack" -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1) || { cat "$scratch/cpack.log"; fail "cpack"; }
deb=$(ls "$scratch"/out/strata_*.deb) || fail "no strata_*.deb"
info=$(dpkg-deb -I "$deb")
grep -q '^ Package: strata$' <<<"$info" || fail "package name: $info"
grep -q '^ Architecture: '"$(dpkg --print-architecture)"'$' <<<"$info" || fail "architecture: $info"
depends=$(dpkg-deb -f "$deb" Depends)
# Every dependency is a package this distribution has (the node's apt resolves it).
for package in $(tr ',' '\n' <<<"$depends" | sed -e 's/(.*)//' -e 's/ //g'); do
  apt-cache show "$package" >/dev/null 2>&1 || dpkg-query -W "$package" >/dev/null 2>&1 ||
    fail "Depends names '$package', which this distribution does not have"
done

root=$scratch/root
dpkg-deb -x "$deb" "$root"
strata=$root/usr/bin/strata
test -x "$strata" || fail "no /usr/bin/strata in the package"
"$strata" --version | grep -q '^strata ' || fail "strata --version"
env -u STRATA_PLUGIN_PATH "$strata" plugins --json >"$scratch/plugins.json"
/usr/bin/python3 - "$root" "$scratch/plugins.json" <<'PY' || fail "plugins from the package: $(cat "$scratch/plugins.json")"
import json, sys
root = sys.argv[1]
plugins = json.load(open(sys.argv[2]))["plugins"]
names = sorted(p["name"] for p in plugins)
assert names == ["cublas", "cudart", "cudnn", "driver", "nccl"], names
for p in plugins:
    assert p["path"].startswith(root + "/usr/lib/strata/plugins/"), p["path"]
    # A plugin whose CUDA library this machine lacks is reported, not lost.
    assert p["state"] in ("loaded", "missing_dependency"), p
PY
# doctor from the installed path: every plugin is found and runs (exit 1:
# no GPU here; 2 or 3 would be strata failing).
set +e
env -u STRATA_PLUGIN_PATH "$strata" doctor --json >"$scratch/doctor.json"
status=$?
set -e
[ $status -le 1 ] || fail "doctor from the package exited $status"
grep -q '"driver.libcuda"' "$scratch/doctor.json" || fail "doctor ran no driver plugin"
for file in usr/lib/strata/strata-bench-runner usr/lib/strata/strata-driver-cold-start \
            usr/share/strata/slurm/strata-healthcheck \
            usr/share/strata/slurm/strata-qualify.sbatch usr/share/strata/kubernetes/strata-qualify-job.yaml \
            usr/share/strata/schemas/fleet.schema.json usr/include/strata/plugin.h; do
  test -e "$root/$file" || fail "the package lacks /$file"
done
test -x "$root/usr/share/strata/slurm/strata-healthcheck" || fail "strata-healthcheck is not executable"
# strata(1), written from the packaged binary's help, renders, and so do the command pages.
page="$root/usr/share/man/man1/strata.1.gz"
test -s "$page" || fail "the package lacks strata(1)"
rendered=$(MANPAGER=cat MANWIDTH=120 man -l "$page" 2>&1) || fail "man -l strata.1.gz: $rendered"
for text in "Usage: strata doctor" "Usage: strata rollout" "EXIT STATUS"; do
  grep -q "$text" <<<"$rendered" || fail "strata(1) lacks '$text'"
done
test -s "$root/usr/share/doc/strata/commands/doctor.md" || fail "the package lacks the command pages"
echo "package $(basename "$deb") ($(du -h "$deb" | cut -f1)): installs and runs"
