#!/usr/bin/env bash
# Hides cuDNN the way a machine without it looks: a private mount namespace
# where /etc/ld.so.cache is empty and LD_LIBRARY_PATH holds every toolkit
# library except libcudnn*. The cuDNN plugin must be reported with the missing
# soname, where strata looked and how to install it; the other plugins still run.
# Exits 77 (skipped) where mount namespaces are not allowed.
set -euo pipefail
strata=$1 toolkit_lib=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/lib"
for file in "$toolkit_lib"/*.so*; do
    case $(basename "$file") in libcudnn*) ;; *) ln -s "$file" "$scratch/lib/" ;; esac
done
: >"$scratch/empty.cache"
namespace=""
for candidate in "unshare -m" "unshare -rm"; do
    if $candidate true 2>/dev/null; then namespace=$candidate; break; fi
done
if [ -z "$namespace" ]; then
    echo "SKIPPED: cannot create a mount namespace here (needs CAP_SYS_ADMIN or user namespaces)"
    exit 77
fi
$namespace sh -c "mount --bind '$scratch/empty.cache' /etc/ld.so.cache &&
    LD_LIBRARY_PATH='$scratch/lib' '$strata' doctor --json --no-selftest >'$scratch/report.json';
    LD_LIBRARY_PATH='$scratch/lib' '$strata' doctor --level health --json >'$scratch/health.json'" || true
/usr/bin/python3 - "$scratch/report.json" "$scratch/lib" "$scratch/health.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
health = {c["id"]: c for c in json.load(open(sys.argv[3]))["checks"]}
checks = {c["id"]: c for c in report["checks"]}
plugins = {p["name"]: p for p in report["plugins"]}
failures = []
def expect(condition, what):
    if not condition: failures.append(what)
load = checks.get("library.cudnn.load", {})
expect(load.get("status") == "fail", f"library.cudnn.load fails: {load}")
expect("libcudnn.so.9 not found" in load.get("summary", ""), "summary names libcudnn.so.9")
expect(f"searched LD_LIBRARY_PATH ({sys.argv[2]})" in load.get("evidence", ""), "evidence says where strata looked")
expect("pip install nvidia-cudnn-cu13" in load.get("remedy", ""), "remedy names the PyPI wheel")
expect("apt install libcudnn9" in load.get("remedy", ""), "remedy names the Debian package")
expect(plugins.get("cudnn", {}).get("state") == "missing_dependency", f"cudnn plugin state: {plugins.get('cudnn')}")
for other in ("cublas", "nccl", "cudart", "driver"):
    expect(plugins.get(other, {}).get("state") == "loaded", f"{other} still loads")
for id in ("library.cublas.load", "library.nccl.load"):
    expect(checks.get(id, {}).get("status") == "pass", f"{id} passes")
# --level health judges the node: a library the system does not carry (jobs
# bring cuDNN as pip wheels) is a skip, never a reason to drain (issue #37).
cudnn = health.get("library.cudnn.load", {})
expect(cudnn.get("status") == "skip" and "no fault of the node" in cudnn.get("summary", ""),
       f"--level health: a missing cuDNN is a skip: {cudnn}")
if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("cuDNN hidden: reported as", load["summary"])
PY
