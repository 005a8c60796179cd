#!/usr/bin/env python3
"""`strata frameworks --prove` with the real torch 2.3.0 wheel and its pins.

A scratch virtual environment of Debian's Python 3.11 sees the cached pip
install of torch 2.3.0 (CUDA 12.1) and its nvidia-* wheels through a .pth
file, so its own interpreter imports the real thing:
  1. the import succeeds without a GPU, torch's view (CUDA 12.1, cuDNN 8.9.2,
     NCCL 2.20.5, the libraries it mapped) agrees with strata's reading, and
     it sees no GPU with torch's own reason;
  2. with the pinned cuDNN wheel removed (a hard-linked copy of the install),
     or its cuBLASLt replaced by the toolkit's CUDA 13 build, the import fails
     and is explained in the library layer;
  3. with NCCL replaced by another build (2.27.7), the library the child
     mapped answers 2.27.7 where torch was built with and pins 2.20.5 (torch
     itself reports the version it was compiled with): the second witness;
  4. a framework whose import hangs, or crashes, is bounded and reported;
  5. a framework that imports and sees a GPU but whose computation raises
     (no kernel image) fails as a GPU computation, not as an import.

usage: framework_proof.py STRATA TORCH_SITE TORCH_DEPS NCCL_WHEEL_LIB CUDA_LIBRARY_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

STRATA, SITE, DEPS, NCCL, CUDA_LIB = (os.path.realpath(a) for a in sys.argv[1:6])
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def venv_seeing(work, name, *directories):
    """A venv whose site-packages holds a .pth naming the directories."""
    path = f"{work}/{name}"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", path], check=True)
    site = subprocess.run([f"{path}/bin/python", "-c", "import site; print(site.getsitepackages()[0])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    with open(f"{site}/strata-test.pth", "w") as f:
        f.write("\n".join(directories) + "\n")
    return f"{path}/bin/python"


def prove(python, *extra):
    result = subprocess.run([STRATA, "frameworks", "--json", "--prove", "--python", python] + list(extra),
                            capture_output=True, text=True, timeout=900, env=dict(os.environ, PYTHONPATH=""))
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        failures.append(f"no JSON: {result.stderr}")
        return result.returncode, {}
    return result.returncode, {c["id"]: c for c in report["checks"]}


work = tempfile.mkdtemp(prefix="strata-proof-")
try:
    # 1. The real install, imported by the environment's own interpreter.
    python = venv_seeing(work, "good", DEPS, SITE)
    status, checks = prove(python)
    proof = checks.get("framework.torch.proof", {})
    check(proof.get("status") == "pass", f"the import is proven: {proof}")
    summary = proof.get("summary", "")
    for needle in ("imported PyTorch 2.3.0", "(CUDA 12.1, cuDNN 8.9.2, NCCL 2.20.5)",
                   "it sees no GPU: Found no NVIDIA driver", "its view agrees with strata's reading"):
        check(needle in summary, f"{needle!r} in {summary!r}")
    loaded = proof.get("evidence", "")
    for library in ("nvidia/cudnn/lib/libcudnn.so.8", "nvidia/cuda_runtime/lib/libcudart.so.12",
                    "nvidia/nccl/lib/libnccl.so.2"):
        check(library in loaded, f"the child's maps show {library}: {loaded[:300]}")

    # Hard-linked copies of the install to break (no copy of 4.4 GB).
    def broken_copy(name):
        copy = f"{work}/{name}"
        subprocess.run(["cp", "-al", SITE, copy], check=True)
        return copy

    # 2. The pinned cuDNN wheel removed: the import fails, in the library layer.
    no_cudnn = broken_copy("no-cudnn")
    shutil.rmtree(f"{no_cudnn}/nvidia/cudnn")
    status, checks = prove(venv_seeing(work, "no-cudnn-venv", DEPS, no_cudnn))
    proof = checks.get("framework.torch.proof", {})
    check(proof.get("status") == "fail" and "import torch fails" in proof.get("summary", "") and
          "libcudnn.so.8" in proof.get("summary", ""), f"no cuDNN: {proof.get('summary')}")
    check("explained in the library layer" in proof.get("evidence", ""), f"its layer: {proof.get('evidence', '')[:300]}")
    check(status == 1, f"a failed import exits 1, got {status}")

    # 2b. cuBLASLt replaced by the wrong major (the toolkit's CUDA 13 build in
    #     the CUDA 12 wheel's place): the loader refuses it, in the library layer.
    wrong = broken_copy("wrong-cublaslt")
    target = f"{wrong}/nvidia/cublas/lib/libcublasLt.so.12"
    os.unlink(target)
    os.symlink(os.path.realpath(f"{CUDA_LIB}/libcublasLt.so.13"), target)
    status, checks = prove(venv_seeing(work, "wrong-cublaslt-venv", DEPS, wrong))
    proof = checks.get("framework.torch.proof", {})
    check(proof.get("status") == "fail" and "version `libcublasLt.so.12' not found" in proof.get("summary", "") and
          "explained in the library layer" in proof.get("evidence", ""), f"the wrong cuBLASLt: {proof}")

    # 3. NCCL replaced by another build: torch says 2.27.7, the pins say 2.20.5.
    other_nccl = broken_copy("other-nccl")
    target = f"{other_nccl}/nvidia/nccl/lib/libnccl.so.2"
    os.unlink(target)
    shutil.copy(f"{NCCL}/libnccl.so.2", target)
    status, checks = prove(venv_seeing(work, "other-nccl-venv", DEPS, other_nccl))
    proof = checks.get("framework.torch.proof", {})
    if proof.get("status") == "fail":  # an import that refuses the other build is a finding too
        check("import torch fails" in proof.get("summary", ""), f"other NCCL: {proof}")
    else:
        check(proof.get("status") == "warn" and
              "NCCL: built with and pinned at 2.20.5, the library it loaded is 2.27.7" in proof.get("summary", ""),
              f"the second witness: {proof.get('summary')}")

    # 4. Imports that hang or crash: bounded and reported.
    for name, body, expected, needle in (("hangs", "import time\ntime.sleep(600)\n", "timeout", "timed out"),
                                         ("crashes", "import os\nos.kill(os.getpid(), 11)\n", "crashed", "signal")):
        site = f"{work}/{name}-site"
        os.makedirs(f"{site}/cupy")
        os.makedirs(f"{site}/cupy_cuda12x-13.3.0.dist-info")
        open(f"{site}/cupy/__init__.py", "w").write(body)
        open(f"{site}/cupy_cuda12x-13.3.0.dist-info/METADATA", "w").write(
            "Metadata-Version: 2.1\nName: cupy-cuda12x\nVersion: 13.3.0\n")
        open(f"{site}/cupy_cuda12x-13.3.0.dist-info/RECORD", "w").write("cupy/__init__.py,,\n")
        status, checks = prove(venv_seeing(work, f"{name}-venv", site), "--prove-timeout", "5")
        proof = checks.get("framework.cupy.proof", {})
        check(proof.get("status") == expected and needle in proof.get("summary", ""),
              f"an import that {name}: {proof}")

    # 5. Imported, a GPU seen, the computation raises: the GPU's answer, not the import's.
    site = f"{work}/kernelless-site"
    os.makedirs(f"{site}/cupy/cuda")
    os.makedirs(f"{site}/cupy_cuda12x-13.3.0.dist-info")
    open(f"{site}/cupy/__init__.py", "w").write(
        "__version__ = '13.3.0'\nfrom . import cuda\nfloat64 = 'float64'\n"
        "def arange(n, dtype=None):\n"
        "    raise RuntimeError('cudaErrorNoKernelImageForDevice: no kernel image is available for execution "
        "on the device')\n")
    open(f"{site}/cupy/cuda/__init__.py", "w").write(
        "class runtime:\n"
        "    @staticmethod\n    def runtimeGetVersion(): return 12040\n"
        "    @staticmethod\n    def getDeviceCount(): return 1\n")
    open(f"{site}/cupy_cuda12x-13.3.0.dist-info/METADATA", "w").write(
        "Metadata-Version: 2.1\nName: cupy-cuda12x\nVersion: 13.3.0\n")
    open(f"{site}/cupy_cuda12x-13.3.0.dist-info/RECORD", "w").write("cupy/__init__.py,,\n")
    status, checks = prove(venv_seeing(work, "kernelless-venv", site))
    proof = checks.get("framework.cupy.proof", {})
    summary = proof.get("summary", "")
    check(proof.get("status") == "fail" and "imported CuPy 13.3.0" in summary and
          "its GPU computation did not pass: 2 * (0 + 1 + ... + 1048575) on the GPU failed: "
          "cudaErrorNoKernelImageForDevice" in summary and "import cupy fails" not in summary,
          f"a failed GPU computation is not an import failure: {proof}")
finally:
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("framework proof: all checks passed")
