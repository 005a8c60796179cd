#!/usr/bin/env python3
"""strata reads a real framework wheel from PyPI as its own files say.

Usage: real_framework_wheel.py STRATA CUOBJDUMP VENV
VENV holds jax-cuda13-plugin (scripts/setup --test installs it, without its
dependencies). The oracles: the venv's own importlib.metadata for the version
and the files, cuobjdump for the architectures each shared library carries.
"""
import json, os, re, subprocess, sys

from framework_checks import Expectations, check, run_frameworks

strata, cuobjdump, venv = sys.argv[1:]
python = os.path.join(venv, "bin", "python")
expect = Expectations()


oracle = json.loads(subprocess.run([python, "-c", """
import importlib.metadata as m, json
d = m.distribution('jax-cuda13-plugin')
print(json.dumps({'version': d.version,
                  'files': [str(f.locate()) for f in d.files if str(f).endswith('.so')],
                  'requires': d.requires}))
"""], capture_output=True, text=True, check=True).stdout)

sass, ptx, with_code = set(), set(), set()
line = re.compile(r"^(ELF|PTX) file\s+\d+: .*\.sm_(\d+[af]?)\.(cubin|ptx)$")
for path in oracle["files"]:
    listing = subprocess.run([cuobjdump, "--list-elf", "--list-ptx", path], capture_output=True, text=True)
    for text in listing.stdout.splitlines():
        m = line.match(text.strip())
        if m:
            (sass if m.group(1) == "ELF" else ptx).add(("sm_" if m.group(1) == "ELF" else "compute_") + m.group(2))
            with_code.add(os.path.realpath(path))


def frameworks(*args):
    return run_frameworks(strata, "--python", python, *args)


code, report = frameworks()
facts = report["environment"]
fact = lambda key: facts.get("framework.jax." + key, {}).get("value")
expect(fact("version") == oracle["version"], f"version {fact('version')} == importlib.metadata's {oracle['version']}")
expect(str(fact("cuda_build")).startswith("13"), f"CUDA build {fact('cuda_build')} is CUDA 13 (jax-cuda13-plugin)")
cudnn_floor = next(r for r in oracle["requires"] if r.startswith("nvidia-cudnn"))
# A `>=` requirement is a floor, not what the plugin was built with: it is
# reported as cudnn_required_min, and no cudnn_build is claimed.
expect(fact("cudnn_required_min") and fact("cudnn_required_min") in cudnn_floor and fact("cudnn_build") is None,
       f"cuDNN floor {fact('cudnn_required_min')} of '{cudnn_floor}' is a requirement, not a build fact")
expect(set(fact("sass") or []) == sass, f"SASS {sorted(fact('sass') or [])} == cuobjdump's {sorted(sass)}")
expect(set(fact("ptx") or []) == ptx, f"PTX {sorted(fact('ptx') or [])} == cuobjdump's {sorted(ptx)}")
site = fact("location")
ours = {os.path.realpath(os.path.join(site, f)) for f in fact("device_code_files") or []}
expect(ours == with_code, f"{len(ours)} files with device code == cuobjdump's {len(with_code)}")
expect(len(with_code) > 0, "the wheel carries device code (else this test proves nothing)")
expect(check(report, "framework.architectures.jax")["status"] == "skip", "no GPU here: architectures not judged")

# Verdicts follow from what the files hold.
code, report = frameworks("--sm", "9.0", "--driver", "580.65.06")
expect(check(report, "framework.architectures.jax")["status"] == ("pass" if "sm_90" in sass else "fail"),
       "CC 9.0 verdict agrees with cuobjdump's list")
expect(check(report, "framework.cuda_driver.jax")["status"] == "pass", "driver 580.65.06 (CUDA 13.0) runs it")
code, report = frameworks("--sm", "7.0", "--driver", "570.86.10")
expect(check(report, "framework.architectures.jax")["status"] == "fail" and "sm_70" not in sass,
       "CC 7.0 (Volta, gone from CUDA 13) cannot run it")
expect(check(report, "framework.cuda_driver.jax")["status"] == "fail" and code == 1,
       "driver 570.86.10 (CUDA 12.8) is too old for a CUDA 13 build; exit 1")
sys.exit(expect.exit_code())
