#!/usr/bin/env python3
"""ONNX Runtime, CuPy and a JAX CUDA 12 plugin pair from PyPI, and NCCL 2.20.5,
judged from their files as the issue that asked for them established.

Usage: real_other_frameworks.py STRATA FRAMEWORKS_CACHE
FRAMEWORKS_CACHE holds ort/site (onnxruntime-gpu 1.20.2), cupy/site
(cupy-cuda12x 13.3.0), jax12/site (jaxlib, jax-cuda12-plugin and -pjrt 0.4.35)
and torch23/site (for nvidia-nccl-cu12 2.20.5), each installed by pip without
dependencies (scripts/setup --test). Expected values and their sources:
- onnxruntime-gpu 1.20.2 ships no build-info CUDA version in its wheel's
  provider; its provider links libcublas.so.12 / libcudart.so.12 (CUDA 12) and
  its newest PTX is ISA 8.2 (CUDA 12.2); its SASS stops at sm_80 and every
  registered fat binary carries PTX (strata arch, and cuobjdump 13 where it reads).
- jax-cuda12-plugin 0.4.35 requires nvidia-cudnn-cu12>=9.1 and
  nvidia-nccl-cu12>=2.18.1 (its METADATA): floors, not build facts; its PTX is
  ISA 8.3 (CUDA 12.3) while its runtime floor says 12.1.
- NCCL 2.20.5: the one fat binary the runtime registers (.nvFatBinSegment ->
  .nv_fatbin) holds SASS sm_50-sm_90 and no PTX; the compute_90 PTX lives only
  in the relocatable __nv_relfatbin copies used for device linking. So CC 12.0
  cannot run it, and CC 9.0 runs it natively.
An install scripts/setup left out (too little disk, and it says so) is named and left out here.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from framework_checks import Expectations, check, installed, judge

strata, cache = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
expect = Expectations()


def frameworks(site, sm, driver):
    return judge(strata, site, sm, driver)


def status(report, check_id):
    return check(report, check_id)["status"]


def summary(report, check_id):
    return check(report, check_id)["summary"]


# ONNX Runtime: CUDA from the binaries, so the driver is judged.
def onnxruntime_1_20(site):
    code, report = frameworks(site, "8.0", "550.54.15")
    facts = report["environment"]
    expect(str(facts["framework.onnxruntime.cuda_build"]["value"]).startswith("12"),
           f"ONNX Runtime's CUDA build {facts['framework.onnxruntime.cuda_build']['value']} is derived from its binaries")
    expect(status(report, "framework.architectures.onnxruntime") == "pass", "CC 8.0: native sm_80 SASS")
    code, report = frameworks(site, "8.0", "470.57.02")
    expect(status(report, "framework.cuda_driver.onnxruntime") == "fail" and code == 1,
           "driver 470 (CUDA 11.4) cannot run its CUDA 12 provider: fail, exit 1")
    code, report = frameworks(site, "9.0", "550.54.15")
    arch = summary(report, "framework.architectures.onnxruntime")
    expect(status(report, "framework.architectures.onnxruntime") == "warn" and "compute_80 PTX is JIT-compiled" in arch,
           f"CC 9.0: its kernels JIT-compile from compute_80 PTX (no sm_90 SASS): {arch[:120]}")


# JAX CUDA 12 pair: floors are requirements; CUDA from its PTX ISA.
def jax_cuda12_pair(site):
    code, report = frameworks(site, "9.0", "550.54.15")
    facts = report["environment"]
    expect(facts.get("framework.jax.cudnn_required_min", {}).get("value") == "9.1"
           and "framework.jax.cudnn_build" not in facts, "JAX: cuDNN >=9.1 is a floor (cudnn_required_min), not a build fact")
    expect(facts["framework.jax.cuda_build"]["value"] == "12.3", "JAX plugin: CUDA 12.3 from its PTX ISA 8.3, not the 12.1 floor")
    expect(status(report, "framework.architectures.jax") == "pass", "JAX on CC 9.0: native")
    expect(not any("different JAX releases" in c["summary"] for c in report["checks"]), "jaxlib and its plugin are one release")
    code, report = frameworks(site, "9.0", "535.54.03")
    expect(status(report, "framework.cuda_driver.jax") == "warn",
           "driver 535 (CUDA 12.2) runs it under minor-version compatibility, but not its 12.3 PTX: warn")


# CuPy: found and judged.
def cupy_13(site):
    code, report = frameworks(site, "9.0", "550.54.15")
    expect(status(report, "framework.architectures.cupy") == "pass", "CuPy on CC 9.0: native")
    code, report = frameworks(site, "12.0", "580.65.06")
    expect(status(report, "framework.architectures.cupy") in ("warn", "fail"), "CuPy on CC 12.0: no native SASS")
    # Installed without the CUDA Toolkit its install guide requires (no CUDA 12
    # libraries here, and 13.3.0 predates the [ctk] extra): NVRTC, which
    # compiles nearly every CuPy kernel, is missing; that fails (issue #38
    # item 10), and the fix names the extra. cuTENSOR stays optional.
    libraries = check(report, "framework.libraries.cupy")
    nvrtc = [line for line in libraries["evidence"].splitlines() if "libnvrtc.so.12 (linked by" in line]
    if nvrtc and "not found anywhere the loader looks" in nvrtc[0]:
        expect(libraries["status"] == "fail" and code == 1 and nvrtc[0].strip().startswith("fail:")
               and "every CuPy call that needs it fails" in nvrtc[0],
               f"CuPy without NVRTC fails, exit 1: {code} {nvrtc[0]}")
        expect("pip install -U 'cupy-cuda12x[ctk]'" in libraries["remedy"], f"the fix names [ctk]: {libraries['remedy']}")
        cutensor = [line for line in libraries["evidence"].splitlines() if "libcutensor.so.2 (linked by" in line]
        expect(not cutensor or cutensor[0].strip().startswith("warn:"), f"cuTENSOR is optional: {cutensor}")
        # The same files under a name whose releases have no [ctk] extra
        # (cupy-cuda11x): the fix is the toolkit, never an extra pip lacks.
        renamed = tempfile.mkdtemp(prefix="strata-cupy11x-")
        try:
            for entry in os.listdir(site):
                if not entry.endswith(".dist-info"):
                    os.symlink(os.path.join(site, entry), os.path.join(renamed, entry))
            info = os.path.join(renamed, "cupy_cuda11x-13.3.0.dist-info")
            shutil.copytree(os.path.join(site, "cupy_cuda12x-13.3.0.dist-info"), info)
            metadata = open(os.path.join(info, "METADATA")).read().replace("Name: cupy-cuda12x", "Name: cupy-cuda11x")
            open(os.path.join(info, "METADATA"), "w").write(metadata)
            code, other = frameworks(renamed, "12.0", "580.65.06")
            remedy = check(other, "framework.libraries.cupy")["remedy"]
            expect(code == 1 and "[ctk]" not in remedy and "system-wide" in remedy,
                   f"cupy-cuda11x: the fix names no extra it lacks: {remedy}")
        finally:
            shutil.rmtree(renamed)
    else:
        print("note: this host has libnvrtc.so.12; the missing-toolkit case is not exercised")


# NCCL 2.20.5: only registered fat binaries decide.
def nccl_2_20(torch_site):
    nccl = os.path.join(torch_site, "nvidia", "nccl", "lib", "libnccl.so.2")
    run = subprocess.run([strata, "arch", "--json", nccl, "--sm", "12.0", "--sm", "9.0"], capture_output=True, text=True)
    doc = json.loads(run.stdout)["files"][0]
    verdicts = {v["compute_capability"]: v["verdict"] for v in doc["verdicts"]}
    expect(verdicts == {"12.0": "none", "9.0": "native"} and run.returncode == 1,
           f"NCCL 2.20.5: CC 12.0 none, CC 9.0 native ({verdicts}), exit {run.returncode}")
    expect(doc["registered_fat_binaries"] == 1 and doc["unregistered_images"] > 0,
           f"one registered fat binary; {doc['unregistered_images']} device-link images do not count")


# JAX given NCCL 2.20.5 (no image for CC 12.0): every library it will load is judged.
def jax_given_nccl_2_20(jax_site, torch_site):
    scratch = tempfile.mkdtemp(prefix="strata-jax-nccl-", dir=cache)
    try:
        site = os.path.join(scratch, "site")
        subprocess.run(["cp", "-al", jax_site, site], check=True)
        os.makedirs(os.path.join(site, "nvidia"), exist_ok=True)
        subprocess.run(["cp", "-al", os.path.join(torch_site, "nvidia", "nccl"), os.path.join(site, "nvidia")], check=True)
        subprocess.run(["cp", "-al", os.path.join(torch_site, "nvidia_nccl_cu12-2.20.5.dist-info"), site], check=True)
        code, report = judge(strata, site, "12.0", "580.65.06")
        code_check = summary(report, "framework.library_code.jax")
        expect(code == 1 and status(report, "framework.library_code.jax") == "fail" and "libnccl.so.2" in code_check,
               f"JAX with nvidia-nccl-cu12 2.20.5 on CC 12.0: fails and names NCCL ({code_check[:90]})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


ort, jax12, cupy, torch23 = (installed(cache, name) for name in ("ort", "jax12", "cupy", "torch23"))
ran = 0
for case, site in ((onnxruntime_1_20, ort), (jax_cuda12_pair, jax12), (cupy_13, cupy), (nccl_2_20, torch23)):
    if site:
        case(site)
        ran += 1
if jax12 and torch23:
    jax_given_nccl_2_20(jax12, torch23)
if not ran:
    print("SKIPPED: none of these installs is in .cache/frameworks (run scripts/setup --test)")
    sys.exit(77)
sys.exit(expect.exit_code())
