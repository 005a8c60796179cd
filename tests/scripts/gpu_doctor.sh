#!/usr/bin/env bash
# On a GPU machine: `strata doctor --json` must prove every layer through a
# launched, verified kernel: the driver plugin's per-image test (SASS and PTX)
# the runtime's kernel test, and the cuBLAS, cuDNN and NCCL self-tests pass on
# every GPU. Exit 77 (skip) without one.
set -euo pipefail
strata=$1
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no usable GPU (nvidia-smi -L fails or is absent)"
    exit 77
fi
report=$(mktemp)
trap 'rm -f "$report"' EXIT
"$strata" doctor --json >"$report" || true
"${STRATA_PYTHON:-python3}" - "$report" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
checks = {c["id"]: c for c in report["checks"]}
# Per-GPU checks share their id; the GPU is the check's device field.
per_gpu = {(c["id"], c.get("device")): c for c in report["checks"]}
count = report["environment"]["device.count"]["value"]
problems = []
for gpu in range(count):
    for id in ("kernel.driver_images", "kernel.cudart.kernels"):
        check = per_gpu.get((id, gpu))
        if not check or check["status"] not in ("pass", "warn"):
            problems.append(f"{id} (GPU {gpu}): {check and check['status']}: {check and check['summary']}")
    for id in ("library.cublas.gemm", "library.cudnn.convolution"):
        check = per_gpu.get((id, gpu))
        if not check or check["status"] != "pass":
            problems.append(f"{id} (GPU {gpu}): {check and check['status']}: {check and check['summary']}")
for id in ("driver.cuda_init", "runtime.cudart.device_count", "runtime.driver_compatibility",
           "library.nccl.all_reduce", "kernel.cudart.force_ptx_jit"):
    if checks.get(id, {}).get("status") not in ("pass", "warn"):
        problems.append(f"{id}: {checks.get(id)}")
for c in report["checks"]:
    print(f'{c["status"]:8} {c["id"]}: {c["summary"]}')
for m in report.get("measurements", []):
    print("measurement", m)
if problems:
    print("\n".join(["FAILED:"] + problems))
    sys.exit(1)
PY
