#!/usr/bin/env python3
"""strata judges a complete, real pip install of PyTorch right, however it is laid out.

Usage: real_torch_install.py STRATA SITE [CUOBJDUMP]
SITE holds torch 2.3.0 (CUDA 12.1) with every nvidia-* wheel it pins, installed
by pip (scripts/setup --test). Layouts are made from it with hard links (no
copies): the same directory as an absolute path, a relative one and `.`; with
every RECORD removed; torch as egg-info, with and without installed-files.txt;
a conda-style prefix whose conda-meta lists torch's files; and a broken install
without its cuDNN wheel. Each gives the verdicts derived from the device code.

The oracle, where given: cuobjdump 12.4 (Debian trixie's nvidia-cuda-toolkit,
which scripts/setup --test fetches) must list the same images, by kind and
architecture, as strata finds in .nv_fatbin of every shared library.

Expected architectures, and where they come from: PyTorch 2.3's release wheels
for CUDA 12.1 are built with TORCH_CUDA_ARCH_LIST="5.0;6.0;7.0;7.5;8.0;8.6;9.0"
(pytorch/pytorch, .ci/manywheel/build_cuda.sh of the 2.3 release), SASS only,
no PTX; cuobjdump agrees for the images it can list before it stops with
"Invalid ELF" on libtorch_cuda.so. libcusparseLt (bundled, an optional
component) carries sm_80/86/89 SASS and compute_52 PTX (cuobjdump 13 reads it).
Drivers: CUDA 12.1 needs R530 (12.1 toolkit driver 530.30.02); R525 runs it
under minor-version compatibility; R470 (CUDA 11.4) cannot.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from framework_checks import Expectations, check, judge, statuses

strata, site = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
cuobjdump = sys.argv[3] if len(sys.argv) > 3 else None
expect = Expectations()
OWN_SASS = ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]


def frameworks(directory, sm, driver, cwd=None):
    return judge(strata, directory, sm, driver, cwd=cwd)


def verdicts(report):
    return statuses(report)


# The oracle: cuobjdump 12.4 (Debian trixie) lists every image of every shared
# library; strata's images, by kind and architecture, must be the same multiset.
if cuobjdump and os.access(cuobjdump, os.X_OK):
    import collections
    import re
    line = re.compile(r"^(ELF|PTX) file\s+\d+: .*\.sm_(\d+[af]?)\.(cubin|ptx)$")
    libraries = sorted(os.path.join(d, f) for d, _, files in os.walk(site) for f in files
                       if (f.endswith(".so") or ".so." in f) and not os.path.islink(os.path.join(d, f)))
    agreed, with_code = 0, 0
    for path in libraries:
        listing = subprocess.run([cuobjdump, "--list-elf", "--list-ptx", path], capture_output=True, text=True)
        theirs = collections.Counter()
        for text in listing.stdout.splitlines():
            m = line.match(text.strip())
            if m:
                arch = m.group(2)
                # Arch-specific variants begin with sm_90a; cuobjdump 12.4 prints "sm_50a",
                # "sm_60a" for a few legacy cuBLAS cubins whose flag bits it misreads.
                if arch.endswith("a") and int(arch[:-1]) < 90:
                    arch = arch[:-1]
                theirs[("sm_" if m.group(1) == "ELF" else "compute_") + arch] += 1
        run = subprocess.run([strata, "arch", "--json", path], capture_output=True, text=True)
        doc = json.loads(run.stdout)["files"][0]
        # cuobjdump lists .nv_fatbin only; strata also reads the containers libraries keep
        # elsewhere (.rodata, __nv_relfatbin), which are compared by strata's own tests.
        ours = collections.Counter(i["target"] for i in doc.get("images", [])
                                   if i["kind"] in ("sass", "ptx") and i["section"] == ".nv_fatbin")
        with_code += bool(theirs)
        if ours == theirs:
            agreed += 1
        else:
            expect(False, f"{os.path.relpath(path, site)}: strata {dict(ours)} != cuobjdump 12.4 {dict(theirs)}")
    expect(agreed == len(libraries) and with_code > 10,
           f"cuobjdump 12.4 agrees image for image on all {len(libraries)} shared libraries ({with_code} with device code)")
else:
    print("skip the cuobjdump 12.4 oracle: not given (scripts/setup --test fetches it)")

# The matrix on the install as pip laid it out.
code, report = frameworks(site, "8.0", "550.54.15")
facts = report["environment"]
expect(facts["framework.torch.version"]["value"] == "2.3.0", "torch 2.3.0 found")
expect(facts["framework.torch.cuda_build"]["value"] == "12.1", "CUDA 12.1 from torch/version.py")
expect(facts["framework.torch.sass"]["value"] == OWN_SASS,
       f"own SASS {facts['framework.torch.sass']['value']} == the release build's {OWN_SASS}")
expect(facts["framework.torch.ptx"]["value"] == [], "no PTX of its own (compute_52 is libcusparseLt's)")
expect(code == 0 and all(s == "pass" for s in verdicts(report).values()),
       f"a complete install on CC 8.0 / driver 550 passes every check, exit 0 (got {code}: {verdicts(report)})")
libraries = facts["framework.torch.libraries"]["value"]
expect(not any("not found" in line for line in libraries), "every library the loader gives torch is found")
for soname in ("libcudnn_adv_infer.so.8", "libcudnn_cnn_infer.so.8", "libnvJitLink.so.12"):
    expect(any(line.startswith(soname) for line in libraries),
           f"{soname} is resolved (dlopened by, or linked from, another CUDA library)")
for noise in ("libcufftw.so.11", "libcusolverMg.so.11", "libnvblas.so.12", "libnvrtc-builtins.so.12"):
    expect(not any(line.startswith(noise) for line in libraries), f"{noise} (never loaded by torch) is not listed")

matrix = [  # (CC, driver, architectures, cuda_driver, library_code)
    ("7.0", "550.54.15", "pass", "pass", "warn"),  # libcusparseLt: compute_52 JIT only
    ("7.5", "550.54.15", "pass", "pass", "warn"),
    ("8.6", "550.54.15", "pass", "pass", "pass"),
    ("8.9", "550.54.15", "pass", "pass", "pass"),  # sm_86 SASS runs on 8.9
    ("9.0", "550.54.15", "pass", "pass", "warn"),
    ("10.0", "570.86.15", "fail", "pass", "fail"),
    ("12.0", "570.86.15", "fail", "pass", "fail"),
    ("8.0", "470.57.02", "pass", "fail", "pass"),
    ("8.0", "525.60.13", "pass", "warn", "pass"),
    ("8.0", "535.54.03", "pass", "pass", "pass"),
    ("8.0", "580.65.06", "pass", "pass", "pass"),
]
for sm, driver, arch, cuda, libcode in matrix:
    code, report = frameworks(site, sm, driver)
    got = (check(report, "framework.architectures.torch")["status"], check(report, "framework.cuda_driver.torch")["status"],
           check(report, "framework.library_code.torch")["status"])
    want_code = 1 if "fail" in (arch, cuda, libcode) else 0
    expect(got == (arch, cuda, libcode) and code == want_code,
           f"CC {sm}, driver {driver}: architectures/cuda_driver/library_code {got} == {(arch, cuda, libcode)}, exit {code}")
    if libcode == "warn":
        expect("libcusparseLt" in check(report, "framework.library_code.torch")["summary"],
               f"CC {sm}: the warning names the optional component")

# The same verdicts, however the directory is named and however the files are listed.
reference = {(sm, d): verdicts(frameworks(site, sm, d)[1]) for sm, d in (("8.0", "550.54.15"), ("12.0", "570.86.15"))}
scratch = tempfile.mkdtemp(prefix="strata-torch-layouts-", dir=os.path.dirname(site))
try:
    def layout(name):
        path = os.path.join(scratch, name)
        subprocess.run(["cp", "-al", site, path], check=True)
        return path

    def same(directory, label, cwd=None, file_list=None):
        # The targets are independent runs: two at a time (the sanitizer build is slow).
        with ThreadPoolExecutor(max_workers=2) as pool:
            runs = {target: pool.submit(frameworks, directory, target[0], target[1], cwd) for target in reference}
        for (sm, driver), want in reference.items():
            code, report = runs[(sm, driver)].result()
            expect(verdicts(report) == want, f"{label}, CC {sm}: the same verdicts as the absolute path")
            if file_list:
                listed = report["environment"]["framework.torch.distributions"]["value"]
                expect(any(file_list in d for d in listed), f"{label}: torch's files came from {file_list} ({listed})")

    parent, leaf = os.path.dirname(site), os.path.basename(site)
    same(leaf, "a relative path", cwd=parent)
    same(".", "'.'", cwd=site)
    same(leaf + "/", "a path with a trailing slash", cwd=parent)

    no_record = layout("no-record")
    for entry in os.listdir(no_record):
        if entry.endswith(".dist-info") and os.path.exists(os.path.join(no_record, entry, "RECORD")):
            os.remove(os.path.join(no_record, entry, "RECORD"))
    same(no_record, "every RECORD removed", file_list="its directories")

    def as_egg(with_list):
        path = layout("egg-list" if with_list else "egg-bare")
        info = os.path.join(path, "torch-2.3.0.dist-info")
        record = [line.split(",")[0] for line in open(os.path.join(info, "RECORD"))]
        egg = os.path.join(path, "torch-2.3.0.egg-info")
        os.rename(info, egg)
        os.rename(os.path.join(egg, "METADATA"), os.path.join(egg, "PKG-INFO"))
        os.remove(os.path.join(egg, "RECORD"))
        if with_list:  # setup.py install writes paths relative to the egg-info directory
            with open(os.path.join(egg, "installed-files.txt"), "w") as f:
                f.write("\n".join("../" + r for r in record if not r.startswith("torch-2.3.0.dist-info")) + "\n")
        return path

    same(as_egg(True), "torch as egg-info with installed-files.txt", file_list="installed-files.txt")
    same(as_egg(False), "torch as egg-info without a file list", file_list="its directories")

    prefix = os.path.join(scratch, "conda")
    os.makedirs(os.path.join(prefix, "lib", "python3.11"))
    os.makedirs(os.path.join(prefix, "conda-meta"))
    conda_site = os.path.join(prefix, "lib", "python3.11", "site-packages")
    subprocess.run(["cp", "-al", site, conda_site], check=True)
    info = os.path.join(conda_site, "torch-2.3.0.dist-info")
    record = [line.split(",")[0] for line in open(os.path.join(info, "RECORD"))]
    os.remove(os.path.join(info, "RECORD"))
    with open(os.path.join(prefix, "conda-meta", "pytorch-2.3.0-py3.11_cuda12.1_cudnn8.9.2_0.json"), "w") as f:
        json.dump({"name": "pytorch", "version": "2.3.0",
                   "files": ["lib/python3.11/site-packages/" + r for r in record]}, f)
    same(conda_site, "a conda-style prefix (conda-meta lists torch's files)", file_list="conda-meta")

    # Broken: the pinned cuDNN wheel is gone. No pass where a required library cannot load.
    broken = layout("no-cudnn")
    shutil.rmtree(os.path.join(broken, "nvidia", "cudnn"))
    shutil.rmtree(os.path.join(broken, "nvidia_cudnn_cu12-8.9.2.26.dist-info"))
    code, report = frameworks(broken, "8.0", "550.54.15")
    expect(code == 1 and check(report, "framework.libraries.torch")["status"] == "fail",
           f"without its cuDNN wheel: framework.libraries fails, exit {code}")

    # A CUDA 12 build given CUDA 13 copies of the same sonames: its cuSPARSE and NCCL wheels are
    # gone and the machine's CUDA 13 toolkit (ld.so.cache) has libcusparse.so.12 and libnccl.so.2.
    cache = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    system = {line.split("=>")[-1].strip() for line in cache.splitlines() if "libcusparse.so.12 " in line}
    cuda13 = [p for p in system if subprocess.run(["sh", "-c", f"readelf -d '{p}' | grep -q 'libnvJitLink.so.13'"]).returncode == 0]
    if cuda13:
        mixed = layout("cuda13-copies")
        for gone in ("nvidia/cusparse", "nvidia/nccl"):
            shutil.rmtree(os.path.join(mixed, gone))
        code, report = frameworks(mixed, "8.0", "550.54.15")
        evidence = check(report, "framework.libraries.torch").get("evidence", "")
        expect(code == 1 and "libcusparse.so.12: the loader picks a copy built for CUDA 13 (it links libnvJitLink.so.13)" in evidence,
               f"a CUDA 13 libcusparse.so.12 ({cuda13[0]}) for a CUDA 12.1 torch is a failure, named")
        nccl = [line.split("=>")[-1].strip() for line in cache.splitlines() if "libnccl.so.2 " in line]
        if nccl and subprocess.run(["grep", "-q", "-a", "+cuda13", nccl[0]]).returncode == 0:
            expect("libnccl.so.2: the loader picks a copy built for CUDA 13 (its version string" in evidence,
                   f"the machine's NCCL ({nccl[0]}, +cuda13) is named by its version string")
    else:
        print("skip the CUDA-major case: no CUDA 13 libcusparse.so.12 in ld.so.cache here")
finally:
    shutil.rmtree(scratch, ignore_errors=True)

sys.exit(expect.exit_code())
