#!/usr/bin/env python3
"""The JIT proof of what is installed, over real framework wheels, under the
fault-injection driver.

`strata frameworks --sm CC --json` says which fat binaries of an install the
driver's JIT compiles on such a GPU (framework.<id>.jit_fat_binaries).
`strata bench --jit-installed` must hand the driver exactly those, byte for
byte: the fake libcuda writes every fat binary it is given to a directory,
and this script reads each one back out of the wheel's file itself, parsing
the container (magic, header, entries) on its own to check that it holds PTX
the GPU can compile and no SASS it runs. Then `record` under two drivers and
`rollout`: a fat binary the candidate refuses and a slower JIT are a no-go
naming the file and the driver's error; where nothing moved, a go.

The real wheels: JAX 0.4.35's CUDA 12 plugin (SASS up to sm_90, compute_90
PTX) JIT-compiles on CC 10.0; PyTorch 2.10's only PTX is a device-link input
that is never loaded, so on any GPU it hands the JIT nothing.

usage: jit_installed_fake.py STRATA FAKE_DRIVER_DIR FRAMEWORK_CACHE SOURCE_DIR
exit 77 when the JAX install is not in the cache (scripts/setup --test).
"""
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import jsonschema

STRATA, FAKE_DIR, CACHE, SOURCE = sys.argv[1:5]
JAX = os.path.join(CACHE, "jax12", "site")
TORCH = os.path.join(CACHE, "torch210", "site")
CC, SM = "10.0", 100
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(args, fake, home):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = FAKE_DIR
    env["STRATA_FAKE_CUDA"] = fake
    env["HOME"] = home
    return subprocess.run([STRATA] + args, capture_output=True, text=True, env=env, timeout=900)


def fnv1a(data):
    """The fake driver's name for a fat binary (fake_config.h)."""
    h = 1469598103934665603
    for byte in data:
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def container(path, offset):
    """The fat binary at `offset` of `path`, read and parsed here: (bytes, [(kind, arch)])."""
    with open(path, "rb") as f:
        f.seek(offset)
        head = f.read(16)
        magic, version, header, entries = struct.unpack("<IHHQ", head)
        if magic != 0xBA55ED50 or version != 1 or header != 16:
            return None, []
        body = f.read(entries)
    images, at = [], 0
    while at + 32 <= len(body):
        kind, _, size, payload = struct.unpack_from("<HHIQ", body, at)
        arch, = struct.unpack_from("<I", body, at + 28)
        if size == 0:
            break
        images.append((kind, arch))
        at += size + payload
    return head + body, images


def expected_jit(site, cc):
    """{(absolute file, offset): bytes} from `frameworks`' facts."""
    result = run(["frameworks", "--json", "--site-packages", site, "--sm", cc], "", work)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        failures.append(f"frameworks {site}: no JSON\n{result.stderr[-2000:]}")
        return {}
    out = {}
    for key, fact in report.get("environment", {}).items():
        if not key.endswith("jit_fat_binaries"):
            continue
        for group in fact["value"]:
            check(group["cc"] == cc, f"{key}: judged for {group['cc']}")
            for offset, size in group["fat_binaries"]:
                out[(os.path.join(site, group["file"]), offset)] = size
    return out


if not os.path.exists(os.path.join(JAX, ".strata-ready")):
    print(f"SKIP: no JAX CUDA 12 install in {JAX} (scripts/setup --test)")
    sys.exit(77)

work = tempfile.mkdtemp(prefix="strata-jit-installed-")
try:
    # 1. What `frameworks` says the JIT compiles, checked against the bytes.
    expected = expected_jit(JAX, CC)
    check(len(expected) >= 10, f"JAX's CUDA plugin JIT-compiles on CC {CC}: {len(expected)} fat binaries")
    wanted, hash_of = {}, {}
    for (path, offset), size in expected.items():
        data, images = container(path, offset)
        check(data is not None and len(data) == size, f"{path}@{offset:#x}: a fat binary of {size} bytes")
        if data is None:
            continue
        sass = [arch for kind, arch in images if kind == 2]
        ptx = [arch for kind, arch in images if kind == 1]
        check(not any(a // 10 == SM // 10 and a <= SM for a in sass),
              f"{path}@{offset:#x} has SASS CC {CC} runs: {sass}")
        check(any(a <= SM for a in ptx), f"{path}@{offset:#x} has no PTX CC {CC} compiles: {ptx}")
        wanted[fnv1a(data)] = data
        hash_of[(path, offset)] = fnv1a(data)

    # 2. `bench --jit-installed` hands the driver exactly those, byte for byte.
    dump = os.path.join(work, "handed")
    os.mkdir(dump)
    out = os.path.join(work, "bench.json")
    result = run(["bench", "--jit-installed", "--filter", "^driver/jit_installed/", "--site-packages", JAX,
                  "--repetitions", "4", "--out", out], f"cc={CC};name=Fake B200;jit_ms=1;load_dump={dump}", work)
    check(result.returncode == 0, f"bench --jit-installed: exit {result.returncode}\n{result.stdout[-1500:]}"
          f"\n{result.stderr[-1500:]}")
    handed = {}
    for name in os.listdir(dump):
        with open(os.path.join(dump, name), "rb") as f:
            handed[name.removesuffix(".fatbin")] = f.read()
    check(set(handed) == set(wanted), f"handed {len(handed)} distinct fat binaries, "
          f"frameworks named {len(wanted)}: extra {sorted(set(handed) - set(wanted))[:3]}, "
          f"missing {sorted(set(wanted) - set(handed))[:3]}")
    check(all(handed[h] == wanted[h] for h in set(handed) & set(wanted)), "the bytes handed are the file's")
    doc = json.load(open(out)) if os.path.exists(out) else {"benchmarks": []}
    proofs = {}
    for entry in doc["benchmarks"]:
        proofs.setdefault(entry["name"], []).append(entry)
    total = proofs.pop(f"driver/jit_installed/total/device:0", [])
    named = {int(n.rsplit("@", 1)[1].split("/")[0], 16) for n in proofs}
    check(len(proofs) == len(expected) and named == {offset for _, offset in expected},
          f"one result per fat binary, named by its offset: {len(proofs)} for {len(expected)}")
    for name, entries in proofs.items():
        check(len(entries) == 4 and all(not e.get("error_occurred") and e["jit_wall_ms"] == 1.0
                                        and e["label"].startswith("compute_") for e in entries),
              f"{name}: four passes, each a 1 ms JIT as the fake says: {entries[:1]}")
    check(len(total) == 4 and all(t["fat_binaries"] == len(expected) and t["refused"] == 0
                                  and t["jit_wall_ms"] == float(len(expected)) for t in total),
          f"the total sums every fat binary's JIT: {total[:1]}")
    check(f"{len(expected)} fat binaries of 1 framework install(s) with device code, for GPU 0 (CC {CC})"
          in result.stdout, f"bench says what it handed over:\n{result.stdout[:600]}")

    # A refusal: bench keeps the driver's error and JIT log, and exits 1.
    # compare judges each fat binary on loading: a JIT 20 times slower trips
    # its gate on the total alone.
    refuse = next(iter(hash_of.values()))
    slow_out = os.path.join(work, "slow.json")
    result = run(["bench", "--jit-installed", "--filter", "^driver/jit_installed/", "--site-packages", JAX,
                  "--repetitions", "4", "--out", slow_out], f"cc={CC};jit_ms=20;fatbin_refuse={refuse}", work)
    refused = [e for e in json.load(open(slow_out))["benchmarks"] if e.get("error_occurred")] \
        if os.path.exists(slow_out) else []
    check(result.returncode == 1 and refused and all("CUDA_ERROR_INVALID_PTX" in e["error_message"]
                                                     and "JIT log: ptxas" in e["error_message"] for e in refused),
          f"a refused fat binary: exit {result.returncode}, {refused[:1]}")
    compared = run(["compare", "--json", "--fail-above", "5%", out, slow_out], "", work)
    try:
        rows = json.loads(compared.stdout)["benchmarks"]
    except (json.JSONDecodeError, KeyError):
        rows = []
        failures.append(f"compare: no JSON rows\n{compared.stdout[-800:]}{compared.stderr[-800:]}")
    gated = [r["name"] for r in rows if r.get("trips_gate")]
    check(compared.returncode == 1 and gated == ["driver/jit_installed/total/device:0"],
          f"compare trips its gate on the total alone: exit {compared.returncode}, {gated[:3]}")

    # 3. PyTorch hands the JIT nothing: `frameworks` and the proof agree.
    if os.path.exists(os.path.join(TORCH, ".strata-ready")):
        check(expected_jit(TORCH, "11.0") == {}, "PyTorch 2.10 JIT-compiles nothing on CC 11.0")
        result = run(["bench", "--jit-installed", "--filter", "^driver/jit_installed/", "--site-packages", TORCH,
                      "--out", os.path.join(work, "torch.json")], "cc=11.0;jit_ms=1", work)
        check("nothing to JIT-compile" in result.stdout and not os.path.exists(os.path.join(work, "torch.json")),
              f"PyTorch: nothing handed over:\n{result.stdout[-800:]}")
    else:
        print(f"note: no PyTorch 2.10 install in {TORCH}; its half is left out")

    # 4. record under two drivers, then rollout.
    # A fat binary whose bytes no other one shares: the candidate refuses it alone.
    hashes = list(hash_of.values())
    refused_hash = next(h for h in sorted(wanted) if hashes.count(h) == 1)
    refused_at = [f"{os.path.relpath(p, JAX)}@{o:#x}" for (p, o), h in hash_of.items() if h == refused_hash]

    def record(label, fake):
        path = os.path.join(work, f"{label}.record.json")
        result = run(["record", "--jit-installed", "--filter", "^driver/jit_installed/", "--site-packages", JAX,
                      "--repetitions", "6", "--out", path], f"cc={CC};name=Fake B200;" + fake, work)
        check(os.path.exists(path), f"record {label}: exit {result.returncode}\n{result.stderr[-2000:]}")
        return path

    base = record("base", "nvml_driver=570.86.15;version=12080;jit_ms=20")
    same = record("same", "nvml_driver=580.65.06;version=13000;jit_ms=20")
    worse = record("worse", f"nvml_driver=580.65.06;version=13000;jit_ms=40;fatbin_refuse={refused_hash}")

    schemas = [json.load(open(os.path.join(SOURCE, "docs", n)))
               for n in os.listdir(os.path.join(SOURCE, "docs")) if n.endswith(".schema.json")]
    store = {s["$id"]: s for s in schemas if "$id" in s}
    schema = json.load(open(os.path.join(SOURCE, "docs", "rollout.schema.json")))

    def rollout(candidate, *options):
        result = run(["rollout", "--json", *options, base, candidate], "", work)
        try:
            doc = json.loads(result.stdout)
        except json.JSONDecodeError:
            failures.append(f"rollout {candidate}: no JSON\n{result.stdout}\n{result.stderr}")
            return result.returncode, {}
        jsonschema.validate(doc, schema, resolver=jsonschema.RefResolver(
            base_uri=schema.get("$id", ""), referrer=schema, store=store))
        return result.returncode, doc

    rc, doc = rollout(worse)
    reasons = " | ".join(doc.get("reasons", []))
    check(rc == 1 and doc.get("decision") == "no-go", f"a refusal and a slower JIT: {doc.get('decision')} {reasons}")
    check(refused_at and all(r in reasons for r in refused_at) and "CUDA_ERROR_INVALID_PTX" in reasons
          and "refuses this fat binary" in reasons, f"the no-go names the refused file and the driver's error: "
          f"{refused_at} {reasons}")
    check("driver/jit_installed/total" in reasons, f"the no-go names the slower total JIT: {reasons}")
    totals = [b for b in doc.get("benchmarks", []) if b["name"].startswith("driver/jit_installed/total")]
    check(totals and totals[0]["group"] == "driver-facing" and not totals[0]["bigger_is_better"]
          and totals[0]["ratio"] > 1.5, f"the total is judged on its time, smaller is better: {totals[:1]}")
    text = run(["rollout", base, worse], "", work).stdout
    check(f"{len(expected) - len(refused_at)} installed fat binaries JIT-compiled and loaded by CAND as by BASE"
          in text, f"the fat binaries that loaded on both sides are one line:\n{text[:3000]}")
    # Nothing moved (the total is timed on this machine's clock: a 10%
    # threshold keeps a loaded CI machine's noise out of the judgement).
    rc, doc = rollout(same, "--threshold", "10%")
    check(rc == 0 and doc.get("decision") == "go", f"nothing moved: {doc.get('decision')} {doc.get('reasons')}")
    proofs = [b for b in doc.get("benchmarks", []) if b["name"].startswith("driver/jit_installed/")
              and "/total/" not in b["name"]]
    check(len(proofs) == len(expected) and all(b["decision"] == "go" and b["ratio"] is None for b in proofs),
          "each fat binary is judged on loading, never on its time")
finally:
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("the JIT proof of installed frameworks under the fault-injection driver: all checks passed")
