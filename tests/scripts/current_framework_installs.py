#!/usr/bin/env python3
"""strata judges today's pip installs of PyTorch, JAX, TensorFlow and CuPy as they are.

Usage: current_framework_installs.py STRATA FRAMEWORK_CACHE [CUOBJDUMP]
scripts/setup --test installs each into FRAMEWORK_CACHE/<name>/site with exactly the
nvidia-* wheels a full pip install resolved:
- torch210: torch 2.10.0 (CUDA 12.8) with the nvidia-*-cu12 wheels it pins.
- torch213: torch 2.13.0 (CUDA 13.0), whose CUDA wheels come through the cuda-toolkit
  metapackage's extras and share nvidia/cu13/lib; PyPI here serves neither its
  nvidia-cuda-cupti nor its NCCL pin, so cupti is absent and NCCL 2.32.6 stands in for 2.29.7.
- torch215: torch 2.15.0 (CUDA 13.2) and torchvision 0.29.2, what `pip install torch torchvision`
  gives today, with their wheels; torchvision025: torchvision 0.25.0 (CUDA 12.8) alone.
- torchextras: bitsandbytes 0.50.2 (one library per CUDA release, 11.8 to 13.2) and xformers 0.0.35
  (CUDA 12), put beside each torch; vllm 0.34.0 (CUDA 13), beside torch 2.15.
- jaxtf: jax[cuda12] 0.10.2 and tensorflow[and-cuda] 2.21.0 in one environment.
- cupy14: cupy-cuda13x[ctk] 14.2.0 with cuda-pathfinder.
- ort131: onnxruntime-gpu[cuda,cudnn] 1.31.1 (CUDA 13) with the wheels pip resolved.

What each case guards against, found on these real installs:
- torch 2.10 lists nvidia-nvjitlink-cu12 as a direct dependency; libnvJitLink.so.12 is found only
  through libcusparse.so.12's RUNPATH. strata used to look it up from torch's own RPATH first,
  find nothing, and fail a complete install.
- torch 2.13's cuda-toolkit[cublas,...] requirement was read as one opaque dependency: the wheels
  its extras bring (and a missing one) went unseen.
- cuSPARSELt leaves 1 of its 112 fat binaries to the JIT on CC 9.0: one short compile at first use,
  not a warning on every H100.
- torch 2.13's libtorch_cuda_linalg.so has no sm_75 while libtorch_cuda.so has: on a T4 the
  linear-algebra kernels fail, not all of PyTorch; the oracle (cuobjdump, where given) agrees.
- JAX 0.10's plugin loads cuSOLVER, NVRTC and the rest from the wheels itself
  (_load_nvidia_libraries): strata failed a complete install for three libraries "not found".
- TensorFlow dlopens its libraries from libtensorflow_framework.so.2 and libtensorflow_cc.so.2,
  whose RUNPATHs name the wheels; strata searched from another of its 77 libraries and failed
  nearly every library.
- CuPy 14 loads every library through cuda-pathfinder, which takes the wheels' copies before the
  system's: strata said the machine's CUDA toolkit won over each wheel.
- ONNX Runtime 1.31's CUDA provider has no RUNPATH: its wheels' libraries load only after
  onnxruntime.preload_dlls(). strata told users to install wheels that were installed, said ONNX
  Runtime "will not import" (it imports; the provider fails), and never named nvidia-cublas, which
  comes through nvidia-cudnn-cu13. Its provider has sm_90a and sm_120a but no sm_100 and no PTX:
  on a B200 it has no kernel image, and cuobjdump (where given) agrees.

- torch 2.15 (CUDA 13.2) on a B200 with driver 580 was "cannot run": 1 of cuSOLVER's 234 fat
  binaries exists for CC 10.0 only as PTX ISA 9.2, and on a T4 1 of 2 in cuDNN 9.26's tensor-IR
  engines only as PTX ISA 9.4. NVIDIA supports both under minor-version compatibility; strata now
  warns where a few such fat binaries sit beside native ones.

- bitsandbytes ships libbitsandbytes_cuda118.so ... _cuda132.so and loads the one named for
  torch.version.cuda; strata read the first, CUDA 11.8, and failed every complete install of it beside
  a CUDA 12 or 13 torch ("built for CUDA 11 ... cannot work beside it"). Only the build it loads is
  judged now.

- vllm 0.34.0 ships modules built only for sm_90a (FlashAttention-3, FlashMLA) or sm_100f (its
  DeepSeek kernels) beside portable ones, and loads each only on those GPUs: strata failed every GPU
  for the module built for another. A file built only for architecture-specific targets is now set
  aside on other GPUs, and fails only where no other file has code for the GPU.

- A package built against the framework (torchvision) was not looked at: torchvision 0.25 (pinned
  to torch 2.10, CUDA 12) beside torch 2.15 (CUDA 13) went unsaid.
- A package that asks only for "torch" (flash-attn does) and was built against another release
  passed: its imports are now looked up in torch's symbol tables. torchvision 0.25 beside torch 2.3
  imports symbols 2.3 does not export, and the dynamic loader itself (in a child Python, torch's
  libraries preloaded) stops at one of the symbols strata names; beside torch 2.10, the release it
  was made for, every import is exported.

An install scripts/setup left out (it does so where the disk is too small, and says so) is
named and left out here; with none of them the test exits 77 (skipped).
"""
import contextlib
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from framework_checks import Expectations, check, fact, installed, judge, statuses

strata, cache = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
cuobjdump = sys.argv[3] if len(sys.argv) > 3 and os.access(sys.argv[3], os.X_OK) else None
expect = Expectations()


def frameworks(directory, sm, driver):
    return judge(strata, directory, sm, driver)


def short(report, suffix):
    """{check kind: status} for one framework ("architectures": "pass", ...)."""
    return {k.split(".")[1]: v for k, v in statuses(report, suffix).items()}


# What the machine's own ld.so.cache lists: some expectations depend on it.
cache_listing = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout


def frameworks_without_system_libraries(directory, sm, driver):
    """strata frameworks with an empty /etc/ld.so.cache (a private mount namespace): a machine whose
    only CUDA libraries are the wheels'. None where namespaces are not allowed."""
    handle, empty = tempfile.mkstemp(prefix="empty-ld.so.cache-", dir=cache)
    os.close(handle)
    script = ('mount --bind "$1" /etc/ld.so.cache && exec "$2" frameworks --json --site-packages "$3" '
              '--sm "$4" --driver "$5"')
    try:
        run = subprocess.run(["unshare", "--mount", "sh", "-c", script, "sh", empty, strata, directory, sm, driver],
                             capture_output=True, text=True, timeout=600)
    except FileNotFoundError:  # no unshare(1)
        return None
    finally:
        os.unlink(empty)
    if run.returncode not in (0, 1) or not run.stdout.startswith("{"):
        return None
    return run.returncode, json.loads(run.stdout)


# ---- torch 2.10.0, CUDA 12.8 -------------------------------------------------
def torch_2_10(site):
    code, report = frameworks(site, "9.0", "580.95.05")
    expect(fact(report, "framework.torch.version") == "2.10.0" and fact(report, "framework.torch.cuda_build") == "12.8",
           "torch 2.10.0, CUDA 12.8 (torch/version.py)")
    expect(code == 0 and set(statuses(report).values()) == {"pass"},
           f"a complete torch 2.10 install on CC 9.0 / driver 580 passes every check, exit 0 (got {code}: {short(report, '')})")
    libraries = fact(report, "framework.torch.libraries") or []
    expect(libraries and not any("not found" in line for line in libraries),
           f"every one of the {len(libraries)} libraries the loader gives torch is found")
    jitlink = next((line for line in libraries if line.startswith("libnvJitLink.so.12")), "")
    expect("nvidia/nvjitlink/lib/libnvJitLink.so.12" in jitlink and "libcusparse.so.12" in jitlink,
           f"libnvJitLink.so.12 comes from its wheel through libcusparse's RUNPATH ({jitlink})")
    for soname in ("libcudnn_engines_precompiled.so.9", "libcudnn_graph.so.9", "libnvshmem_host.so.3"):
        expect(any(line.startswith(soname + " -> " + site) for line in libraries), f"{soname} resolves in the install")
    evidence = check(report, "framework.library_code.torch")["evidence"]
    expect(re.search(r"CC 9\.0: libcusparseLt\.so\.0 -> native, except 1 fat binary JIT-compiled at first use", evidence),
           "cuSPARSELt's one JIT-only fat binary is named in the evidence, and passes")

    matrix = [  # (CC, driver, {check: status}, exit)
        ("8.6", "570.86.15", {"architectures": "pass", "cuda_driver": "pass", "libraries": "pass", "library_code": "pass"}, 0),
        ("12.0", "580.95.05", {"architectures": "pass", "cuda_driver": "pass", "libraries": "pass", "library_code": "warn"}, 0),
        ("9.0", "470.57.02", {"cuda_driver": "fail"}, 1),
    ]
    for sm, driver, want, want_code in matrix:
        code, report = frameworks(site, sm, driver)
        got = {k: v for k, v in short(report, ".torch").items() if k in want}
        expect(got == want and code == want_code, f"torch 2.10 on CC {sm}, driver {driver}: {got} == {want}, exit {code}")
        if sm == "12.0":
            summary = check(report, "framework.library_code.torch")["summary"]
            expect("libcufft.so.11" in summary and "compute_90 PTX" in summary,
                   f"CC 12.0: cuFFT 11.3 has no sm_120 SASS and is named ({summary[:120]})")

    scratch = tempfile.mkdtemp(prefix="strata-current-installs-", dir=cache)
    try:
        # Without the nvJitLink wheel: the library torch's cuSPARSE links is gone,
        # and the fix names the wheel that brings it.
        broken = os.path.join(scratch, "no-nvjitlink")
        subprocess.run(["cp", "-al", site, broken], check=True)
        shutil.rmtree(os.path.join(broken, "nvidia", "nvjitlink"))
        shutil.rmtree(os.path.join(broken, "nvidia_nvjitlink_cu12-12.8.93.dist-info"))
        code, report = frameworks(broken, "9.0", "580.95.05")
        libs = check(report, "framework.libraries.torch")
        named = "nvidia-nvjitlink-cu12" in libs["summary"] + libs["remedy"]
        if "libnvJitLink.so.12 " in cache_listing:  # a CUDA 12 toolkit's copy: a warning, or a failure if older
            expect(libs["status"] in ("warn", "fail") and named,
                   f"without nvidia-nvjitlink-cu12 (a system copy exists): not a pass, the wheel named ({libs['summary'][:120]})")
        else:
            expect(code == 1 and libs["status"] == "fail" and named,
                   f"without nvidia-nvjitlink-cu12: framework.libraries fails and names the wheel, exit {code}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ---- torch 2.13.0, CUDA 13.0: the cuda-toolkit metapackage ----------------------
def torch_2_13(site):
    code, report = frameworks(site, "9.0", "580.95.05")
    expect(fact(report, "framework.torch.version") == "2.13.0" and fact(report, "framework.torch.cuda_build") == "13.0",
           "torch 2.13.0, CUDA 13.0")
    dependencies = fact(report, "framework.torch.dependencies") or []
    for wheel, version in (("nvidia-cublas", "13.1.1.3"), ("nvidia-cuda-runtime", "13.0.96"), ("nvidia-cusparse", "12.6.3.3"),
                           ("nvidia-nvjitlink", "13.5.37")):
        line = next((d for d in dependencies if d.startswith(wheel + "=") or d.startswith(wheel + "<")), "")
        expect("(through cuda-toolkit[" in line and line.endswith(": " + version),
               f"{wheel} is a dependency through cuda-toolkit's extras, {version} installed ({line})")
    cupti = next((d for d in dependencies if d.startswith("nvidia-cuda-cupti")), "")
    expect(cupti.endswith("not installed") and "cuda-toolkit[cupti]" in cupti, f"the missing cupti wheel is seen ({cupti})")
    libraries = fact(report, "framework.torch.libraries") or []
    cublas = next((line for line in libraries if line.startswith("libcublas.so.13")), "")
    expect(os.path.join(site, "nvidia/cu13/lib/libcublas.so.13") in cublas and "13.1.1.3" in cublas,
           f"libcublas.so.13 from the shared nvidia/cu13/lib, version 13.1.1.3 ({cublas})")
    got = short(report, ".torch")
    expect({k: got.get(k) for k in ("architectures", "cuda_driver", "library_code")} ==
           {"architectures": "pass", "cuda_driver": "pass", "library_code": "pass"},
           f"CC 9.0 / driver 580: architectures, cuda_driver and library_code pass ({got})")
    libs = check(report, "framework.libraries.torch")
    expect("warn: pins nvidia-nccl-cu13 ==2.29.7 but 2.32.6 is installed" in libs["evidence"],
           "the stand-in NCCL is named against torch's pin")
    expect("pins nvidia-cublas" not in libs["evidence"] and "pins cuda-toolkit" not in libs["evidence"],
           "wildcard pins (==13.1.1.3.*) and zero-padded versions (13.0.3 vs 13.0.3.0) are met")
    if re.search(r"\blibcupti\.so\.13 ", cache_listing):
        expect(libs["status"] == "warn" and code == 0 and "nvidia-cuda-cupti" in libs["summary"] and
               "the loader gives it libcupti.so.13 from" in libs["summary"],
               f"cupti's wheel missing but the toolkit's copy loads: a warning, exit 0 ({libs['summary'][:160]})")
    else:
        expect(libs["status"] == "fail" and code == 1, "cupti's wheel missing and no copy anywhere: a failure")

    code, report = frameworks(site, "7.5", "580.95.05")
    arch = check(report, "framework.architectures.torch")
    expect(arch["status"] == "fail" and "cannot run part of its kernels (1 of 3 libraries" in arch["summary"] and
           "libtorch_cuda_linalg.so" in arch["summary"],
           f"CC 7.5: the linear-algebra library without sm_75 is named, the rest runs ({arch['summary'][:140]})")
    if cuobjdump:
        def sass(name):
            out = subprocess.run([cuobjdump, "--list-elf", os.path.join(site, "torch", "lib", name)],
                                 capture_output=True, text=True).stdout
            return set(re.findall(r"\.(sm_\d+[af]?)\.cubin", out))
        expect("sm_75" in sass("libtorch_cuda.so") and "sm_75" not in sass("libtorch_cuda_linalg.so"),
               "cuobjdump agrees: sm_75 in libtorch_cuda.so, not in libtorch_cuda_linalg.so")
    code, report = frameworks(site, "9.0", "570.86.15")
    expect(check(report, "framework.cuda_driver.torch")["status"] == "fail" and code == 1,
           "a CUDA 13.0 build on driver 570 (CUDA 12.8) fails framework.cuda_driver")


# ---- torch 2.15.0, CUDA 13.2: today's `pip install torch` ------------------------
def torch_2_15(site):
    code, report = frameworks(site, "9.0", "580.95.05")
    expect(fact(report, "framework.torch.version") == "2.15.0" and fact(report, "framework.torch.cuda_build") == "13.2",
           "torch 2.15.0, CUDA 13.2")
    # The GPUs people run it on, with the R580 driver (CUDA 13.0) most fleets
    # carry and R595 (CUDA 13.2). A CUDA 13.2 build on R580 runs under
    # minor-version compatibility: warnings, never a failure.
    for sm in ("7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "10.3", "12.0", "12.1"):
        for driver in ("580.95.05", "595.45.04"):
            code, report = frameworks(site, sm, driver)
            got = short(report, ".torch")
            failing = {k: v for k, v in got.items() if v == "fail"}
            expect(code == 0 and not failing,
                   f"a complete torch 2.15 install on CC {sm} / driver {driver}: no failure, exit 0 (got {code}: {got})")
            if driver == "580.95.05":
                expect(got.get("cuda_driver") == "warn",
                       f"CC {sm} / driver 580: CUDA 13.2 on a CUDA 13.0 driver is said ({got.get('cuda_driver')})")
    # cuSOLVER 12.2 holds one fat binary of 234 that exists for CC 10.0 only
    # as PTX ISA 9.2: the library runs, and that is said, not failed.
    code, report = frameworks(site, "10.0", "580.95.05")
    lib_code = check(report, "framework.library_code.torch")
    expect(lib_code["status"] == "warn" and "libcusolver.so.12: 1 of 234 fat binaries refused by this driver" in
           lib_code["summary"], f"CC 10.0 / driver 580: cuSOLVER's refused fat binary is named ({lib_code['summary'][:200]})")
    # torchvision 0.29.2 (pip's choice beside it) is an extension built for it.
    code, report = frameworks(site, "9.0", "580.95.05")
    extensions = check(report, "framework.extensions.torch")
    expect(extensions["status"] == "pass" and "torchvision 0.29.2" in extensions["summary"] and
           "CUDA 13 (_C_stable.so links libcudart.so.13)" in extensions["evidence"],
           f"torchvision 0.29.2 beside torch 2.15: built for it, native on CC 9.0 ({extensions['summary'][:160]})")
    # It binds through PyTorch's stable C interface (aoti_torch_*): every import is exported, and the
    # dynamic loader agrees.
    expect(re.search(r"imports \d+ symbol\(s\) of PyTorch 2\.15\.0's interface; it exports every one",
                     extensions["evidence"]), "torchvision 0.29.2's imports from torch 2.15 are all exported")
    for name in ("_C_stable.so", "image_stable.so"):
        verdict = loader_verdict(site, os.path.join(site, "torchvision", name))
        expect(verdict in ("loaded", None), f"the loader loads torchvision 0.29.2's {name} beside torch 2.15 ({verdict})")
    # Where it cannot run, it still fails: CC 7.0 (no sm_70 anywhere), and a CUDA 12.8 driver.
    code, report = frameworks(site, "7.0", "580.95.05")
    expect(code == 1 and check(report, "framework.architectures.torch")["status"] == "fail", "CC 7.0: torch 2.15 has no image")
    code, report = frameworks(site, "9.0", "570.86.15")
    expect(code == 1 and check(report, "framework.cuda_driver.torch")["status"] == "fail",
           "a CUDA 13.2 build on driver 570 (CUDA 12.8) fails framework.cuda_driver")


# ---- torchvision 0.25.0 (made for torch 2.10, CUDA 12.8) beside other releases ----
def loader_verdict(site, extension):
    """What the dynamic loader says of one extension's shared object beside the torch of `site`:
    "loaded", the "undefined symbol: X" it stops at, or None where this Python cannot load that torch
    (libtorch_python of a cp312 wheel needs a newer Python's symbols). The libraries it links are loaded
    first, globally, from torch/lib and the nvidia wheels, as `import torch` does."""
    dynamic = subprocess.run(["readelf", "-d", extension], capture_output=True, text=True).stdout
    program = ("import ctypes, os, sys\n"
               "for path in sys.argv[2:]:\n"
               "    try: ctypes.CDLL(path, os.RTLD_GLOBAL | os.RTLD_NOW)\n"
               "    except OSError as error: print('unusable:', error); sys.exit(0)\n"
               "try: ctypes.CDLL(sys.argv[1], os.RTLD_NOW); print('loaded')\n"
               "except OSError as error: print(error)\n")
    preload = []
    for soname in re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic):
        found = (glob.glob(os.path.join(site, "torch", "lib", soname)) +
                 glob.glob(os.path.join(site, "nvidia", "**", soname), recursive=True))
        preload += found[:1]
    # In a child: a library's constructors must not outlive the check, and a crash is an answer too.
    run = subprocess.run([sys.executable, "-c", program, extension] + preload, capture_output=True, text=True,
                         timeout=300)
    out = run.stdout.strip()
    if out.startswith("unusable:"):
        return None
    if out == "loaded":
        return out
    match = re.search(r"undefined symbol: (\S+)", out)
    return match.group(1) if match else f"error: {out or run.stderr.strip()[-300:]}"


def extension_facts(report):
    missing = fact(report, "framework.torch.extension_missing_symbols") or []
    return {line.rsplit(": ", 1)[1] for line in missing}


def mixed_site(base, vision, requirement=None):
    """A scratch site: `base` with its torchvision (if any) replaced by `vision`'s, hard-linked. With
    `requirement`, torchvision's METADATA asks for that instead of its pin ("torch", as flash-attn asks)."""
    scratch = tempfile.mkdtemp(dir=cache)
    mixed = os.path.join(scratch, "site")
    subprocess.run(["cp", "-al", base, mixed], check=True)
    for entry in os.listdir(mixed):
        if entry.startswith("torchvision"):
            shutil.rmtree(os.path.join(mixed, entry))
    for entry in os.listdir(vision):
        if entry.startswith("torchvision"):
            subprocess.run(["cp", "-al", os.path.join(vision, entry), mixed], check=True)
    if requirement:
        metadata = next(os.path.join(mixed, e, "METADATA") for e in os.listdir(mixed)
                        if e.startswith("torchvision") and e.endswith(".dist-info"))
        with open(metadata) as f:
            text = f.read()
        text, count = re.subn(r"(?m)^Requires-Dist: torch ?\(?==[^;\n]*$", "Requires-Dist: " + requirement, text)
        if count != 1:
            raise RuntimeError(f"{metadata}: no pin on torch to replace")
        os.unlink(metadata)  # a hard link: the installed original stays as it is
        with open(metadata, "w") as f:
            f.write(text)
    return scratch, mixed


@contextlib.contextmanager
def judged_beside(name, vision, requirement=None):
    """`strata frameworks` (H100, driver 580) on the cached install `name` with `vision`'s torchvision in
    place of its own (see mixed_site): yields (exit code, report, the torch extensions check, the torch
    site, the mixed site), or nothing to test where that install is not in the cache."""
    site = installed(cache, name)
    if not site:
        yield None
        return
    scratch, mixed = mixed_site(site, vision, requirement)
    try:
        code, report = frameworks(mixed, "9.0", "580.95.05")
        yield code, report, check(report, "framework.extensions.torch"), site, mixed
    finally:
        shutil.rmtree(scratch)


def torchvision_0_25_beside_each_torch(vision):
    # Beside torch 2.15 (CUDA 13.2): the pin, the CUDA major and the missing symbols are all said.
    with judged_beside("torch215", vision) as judged:
        if judged:
            code, report, extensions, _, _ = judged
            expect(code == 1 and extensions["status"] == "fail" and
                   "torchvision 0.25.0 requires torch==2.10.0, but PyTorch 2.15.0 is installed" in extensions["summary"] and
                   "torchvision 0.25.0 is built for CUDA 12 (_C.so links libcudart.so.12), PyTorch 2.15.0 for CUDA 13.2"
                   in extensions["evidence"] and
                   "torchvision 0.25.0 cannot be imported beside PyTorch 2.15.0" in extensions["evidence"],
                   f"torchvision 0.25.0 beside torch 2.15: the pin, the CUDA major and the imports are said "
                   f"({extensions['evidence'][:300]})")
            expect("_ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_jb" in extension_facts(report),
                   "c10::cuda::c10_cuda_check_implementation, which torch 2.15 no longer exports, is named")
    # Beside torch 2.10, the release it was made for: every import is exported.
    with judged_beside("torch210", vision) as judged:
        if judged:
            _, _, extensions, _, _ = judged
            expect(extensions["status"] == "pass" and
                   re.search(r"imports \d+ symbol\(s\) of PyTorch 2\.10\.0's interface; it exports every one",
                             extensions["evidence"]),
                   f"torchvision 0.25.0 beside torch 2.10, its own release: passes ({extensions['summary'][:200]})")
    # Beside torch 2.3 (CUDA 12.1), asking only for "torch" as flash-attn does: nothing but the
    # symbols tells, and the dynamic loader stops at one strata names.
    with judged_beside("torch23", vision, requirement="torch") as judged:
        if judged:
            code, report, extensions, site, mixed = judged
            missing = extension_facts(report)
            expect(code == 1 and extensions["status"] == "fail" and
                   extensions["summary"].startswith("torchvision 0.25.0 cannot be imported beside PyTorch 2.3.0") and
                   "pip install --no-build-isolation" in extensions["remedy"] and len(missing) > 1,
                   f"torchvision 0.25.0 (unpinned) beside torch 2.3: fails on its imports ({extensions['summary'][:300]})")
            for name in ("_C.so", "image.so"):
                verdict = loader_verdict(site, os.path.join(mixed, "torchvision", name))
                expect(verdict is None or verdict in missing,
                       f"the loader refuses torchvision 0.25.0's {name} beside torch 2.3 at a symbol strata names "
                       f"({verdict})")


@contextlib.contextmanager
def beside(site, extras, prefixes):
    """A scratch copy of `site` (hard-linked) with `extras`' entries starting with `prefixes` added."""
    scratch = tempfile.mkdtemp(dir=cache)
    try:
        mixed = os.path.join(scratch, "site")
        subprocess.run(["cp", "-al", site, mixed], check=True)
        for entry in os.listdir(extras):
            if entry.startswith(prefixes):
                subprocess.run(["cp", "-al", os.path.join(extras, entry), mixed], check=True)
        yield mixed
    finally:
        shutil.rmtree(scratch)


def extras_beside_each_torch(extras):
    """bitsandbytes 0.50.2 and xformers 0.0.35 (what `pip install bitsandbytes xformers` adds) beside each
    cached torch, on an H100 with driver 580."""
    # (torch, its CUDA, the bitsandbytes build it loads, what is said of xformers)
    cases = [("torch210", "12.8", "libbitsandbytes_cuda128.so", None),
             ("torch213", "13.0", "libbitsandbytes_cuda130.so",
              "xformers 0.0.35 is built for CUDA 12 (_C.so links libcudart.so.12), PyTorch 2.13.0 for CUDA 13.0"),
             ("torch215", "13.2", "libbitsandbytes_cuda132.so",
              "xformers 0.0.35 is built for CUDA 12 (_C.so links libcudart.so.12), PyTorch 2.15.0 for CUDA 13.2"),
             ("torch23", "12.1", "libbitsandbytes_cuda121.so",
              "xformers 0.0.35 cannot be imported beside PyTorch 2.3.0: it imports 36 symbols")]
    for name, cuda, build, xformers in cases:
        site = installed(cache, name)
        if not site:
            continue
        with beside(site, extras, ("bitsandbytes", "xformers")) as mixed:
            code, report = frameworks(mixed, "9.0", "580.95.05")
            extensions = check(report, "framework.extensions.torch")
            evidence = extensions["evidence"]
            # Its one library per CUDA release: only torch's is loaded, so only that one is judged.
            expect(f"loads {build} (of 7 CUDA builds), the build for CUDA {cuda}" in evidence and
                   "bitsandbytes 0.50.2 is built for CUDA" not in evidence and
                   "bitsandbytes 0.50.2 has no build" not in evidence,
                   f"bitsandbytes 0.50.2 beside {name}: {build} is the build judged ({evidence[:300]})")
            if xformers:
                expect(code == 1 and extensions["status"] == "fail" and xformers in extensions["summary"],
                       f"xformers 0.0.35 beside {name}: {xformers} ({extensions['summary'][:200]})")
            else:
                expect(extensions["status"] == "pass",
                       f"bitsandbytes and xformers beside {name}, the torch they are built for: pass "
                       f"({extensions['summary'][:200]})")


def vllm_beside_torch_2_15(extras):
    """vllm 0.34.0 (pins torch 2.14, CUDA 13) beside torch 2.15: its modules built only for sm_90a or
    sm_100f are judged on the GPUs they are for, and set aside on the others."""
    site = installed(cache, "torch215")
    if not site or not os.path.isdir(os.path.join(extras, "vllm")):
        return
    with beside(site, extras, ("vllm",)) as mixed:
        for sm, native, set_aside in (("9.0", "_vllm_fa3_C.abi3.so -> sm_90a (native)", "_deepselect_C.abi3.so"),
                                      ("10.0", "_deepselect_C.abi3.so -> sm_100f (native)", "_vllm_fa3_C.abi3.so"),
                                      ("8.0", None, "_vllm_fa3_C.abi3.so")):
            _, report = frameworks(mixed, sm, "580.95.05")
            extensions = check(report, "framework.extensions.torch")
            evidence = extensions["evidence"]
            expect((native is None or f"CC {sm}: {native}" in evidence) and
                   f"CC {sm}: {set_aside} -> not loaded (built only for other GPUs' architecture-specific targets"
                   in evidence and "vllm 0.34.0 cannot run its kernels" not in evidence,
                   f"vllm 0.34.0 on CC {sm}: {set_aside} set aside, not a failure ({evidence[:400]})")


# ---- jax[cuda12] 0.10.2 and tensorflow[and-cuda] 2.21.0, one environment -------
def jax_and_tensorflow(site):
    code, report = frameworks(site, "9.0", "580.95.05")
    expect(fact(report, "framework.jax.version") == "0.10.2" and fact(report, "framework.tensorflow.version") == "2.21.0",
           "JAX 0.10.2 and TensorFlow 2.21.0 found in one environment")
    jax = short(report, ".jax")
    expect(jax == {"architectures": "pass", "cuda_driver": "pass", "libraries": "pass", "library_code": "pass"},
           f"a complete jax[cuda12] install on CC 9.0 / driver 580 passes every check ({jax})")
    libraries = fact(report, "framework.jax.libraries") or []
    for soname in ("libcusolver.so.11", "libnvrtc.so.12", "libcudnn.so.9"):
        line = next((line for line in libraries if line.startswith(soname)), "")
        expect(line.startswith(soname + " -> " + site) and "_load_nvidia_libraries" in line,
               f"JAX: {soname} is the wheel's copy its plugin preloads ({line[:150]})")
    tf = check(report, "framework.libraries.tensorflow")
    tf_libraries = fact(report, "framework.tensorflow.libraries") or []
    for soname in ("libcublas.so.12", "libcudart.so.12", "libcusolver.so.11", "libcufft.so.11"):
        line = next((line for line in tf_libraries if line.startswith(soname)), "")
        expect(line.startswith(soname + " -> " + site) and re.search(r"DT_RUNPATH entry \d+ of libtensorflow_\w+\.so\.2", line),
               f"TensorFlow: {soname} from the wheel through a TensorFlow library's RUNPATH ({line[:150]})")
    expect(tf["status"] != "fail" and not any(line.startswith("fail:") for line in tf["evidence"].splitlines()),
           f"TensorFlow's libraries: no failure on a complete install ({tf['status']}: {tf['summary'][:140]})")


# ---- cupy-cuda13x[ctk] 14.2.0: cuda-pathfinder --------------------------------
def cupy_14(site):
    code, report = frameworks(site, "9.0", "580.95.05")
    libraries = fact(report, "framework.cupy.libraries") or []
    for soname in ("libcublas.so.13", "libcusolver.so.12", "libnvrtc.so.13"):
        line = next((line for line in libraries if line.startswith(soname)), "")
        expect(line.startswith(soname + " -> " + os.path.join(site, "nvidia/cu13/lib")) and "cuda-pathfinder" in line,
               f"CuPy: {soname} is the wheel's copy cuda-pathfinder loads ({line[:150]})")
    libs = check(report, "framework.libraries.cupy")
    expect("wins over" not in libs["evidence"] and not any(line.startswith("fail:") for line in libs["evidence"].splitlines()),
           f"CuPy: no system copy is said to win over a wheel's, nothing fails ({libs['status']}: {libs['summary'][:140]})")
    expect(check(report, "framework.cuda_driver.cupy")["status"] == "warn",
           "CuPy 14.2 is built with CUDA 13.2 (PTX ISA 9.2): on driver 580 (CUDA 13.0) it runs under minor-version compatibility")
    # cuBLASLt 13.10 (CUDA 13.5) on CC 10.0 / driver 580: 1 of 1698 fat
    # binaries exists for it only as PTX ISA 9.3. The library runs: said, not failed.
    code, report = frameworks(site, "10.0", "580.95.05")
    lib_code = check(report, "framework.library_code.cupy")
    expect(lib_code["status"] == "warn" and "holds code this driver cannot load" in lib_code["summary"]
           and "refused by this driver while the rest runs" in lib_code["summary"],
           f"CuPy on CC 10.0 / driver 580: a few refused fat binaries in cuBLASLt warn ({lib_code['status']}: "
           f"{lib_code['summary'][:200]})")


# ---- onnxruntime-gpu[cuda,cudnn] 1.31.1, CUDA 13 -------------------------------
def onnxruntime_1_31(site):
    code, report = frameworks(site, "9.0", "580.95.05")
    expect(fact(report, "framework.onnxruntime.version") == "1.31.1" and
           fact(report, "framework.onnxruntime.cuda_build") == "13.0", "ONNX Runtime 1.31.1, CUDA 13.0")
    libs = check(report, "framework.libraries.onnxruntime")
    if re.search(r"\blibcudart\.so\.13 ", cache_listing):  # this machine's CUDA 13 toolkit is in ld.so.cache
        expect(libs["status"] == "warn" and "call onnxruntime.preload_dlls() before the first session" in libs["remedy"],
               f"ONNX Runtime: the toolkit's copies win over the wheels', and the fix names preload_dlls ({libs['remedy'][:120]})")
        expect("wins over the nvidia-cublas wheel's copy" in libs["evidence"],
               "nvidia-cublas, which comes through nvidia-cudnn-cu13, is the environment's own copy of libcublas.so.13")

    bare = frameworks_without_system_libraries(site, "9.0", "580.95.05")
    if bare is None:
        print("skip ONNX Runtime without a system CUDA: no private mount namespace here (unshare --mount)")
    else:
        code, report = bare
        libs = check(report, "framework.libraries.onnxruntime")
        expect(code == 1 and libs["status"] == "fail" and
               "although the nvidia-cuda-runtime wheel installs it at " + os.path.join(site, "nvidia/cu13/lib") in libs["evidence"],
               f"no system CUDA: the provider's libraries are found nowhere, and the installed wheels are named ({libs['summary'][:120]})")
        expect(libs["remedy"].startswith("call onnxruntime.preload_dlls() before the first session") and
               "install " not in libs["remedy"],
               f"the fix is the preload call (or LD_LIBRARY_PATH), not installing what is installed ({libs['remedy'][:140]})")
        expect("will not import" not in libs["evidence"] and "libonnxruntime_providers_cuda.so cannot load" in libs["evidence"],
               "the CUDA provider cannot load; ONNX Runtime itself still imports")
    for sm, want in (("12.0", "pass"), ("10.0", "fail")):
        code, report = frameworks(site, sm, "580.95.05")
        arch = check(report, "framework.architectures.onnxruntime")
        expect(arch["status"] == want, f"ONNX Runtime 1.31.1 on CC {sm}: architectures {want} ({arch['summary'][:140]})")
    if cuobjdump:
        provider = os.path.join(site, "onnxruntime", "capi", "libonnxruntime_providers_cuda.so")
        elves = subprocess.run([cuobjdump, "--list-elf", provider], capture_output=True, text=True).stdout
        ptx = subprocess.run([cuobjdump, "--list-ptx", provider], capture_output=True, text=True).stdout
        targets = set(re.findall(r"\.(sm_\d+a?)\.", elves))
        expect("sm_90a" in targets and "sm_120a" in targets and not any(t.startswith("sm_10") for t in targets) and
               ".ptx" not in ptx, f"cuobjdump agrees: {sorted(targets)}, no PTX")
    # ONNX Runtime 1.20.2 predates preload_dlls: its fix must not name it.
    old_ort = os.path.join(cache, "ort", "site")
    if os.path.isdir(old_ort):
        code, report = frameworks(os.path.realpath(old_ort), "9.0", "580.95.05")
        expect("preload_dlls" not in check(report, "framework.libraries.onnxruntime")["remedy"],
               "ONNX Runtime 1.20.2 has no preload_dlls, and its fix does not name it")


cases = (("torch210", torch_2_10), ("torch213", torch_2_13), ("torch215", torch_2_15), ("jaxtf", jax_and_tensorflow),
         ("cupy14", cupy_14), ("ort131", onnxruntime_1_31))
ran = 0
for name, case in cases:
    site = installed(cache, name)
    if site:
        case(site)
        ran += 1
vision = installed(cache, "torchvision025")
if vision:
    torchvision_0_25_beside_each_torch(vision)
    ran += 1
extras = installed(cache, "torchextras")
if extras:
    extras_beside_each_torch(extras)
    vllm_beside_torch_2_15(extras)
    ran += 1
if not ran:
    print("SKIPPED: none of today's framework installs is in .cache/frameworks (run scripts/setup --test)")
    sys.exit(77)
sys.exit(expect.exit_code())
