#!/usr/bin/env python3
"""`strata record` and `strata rollout` end to end, without a GPU.

Records are written by `strata record` under the fault-injection driver
standing for two driver versions; their benchmark parts are replaced by
synthetic Google Benchmark results with known shifts. The decisions are
checked against what the shifts must give, and the statistics against scipy
(wilcoxon, mannwhitneyu) and a bootstrap of the same samples.

usage: rollout_end_to_end.py STRATA FAKE_DRIVER_DIR
"""
import copy
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from scipy import stats

STRATA, FAKE_DIR = sys.argv[1], sys.argv[2]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(args, env_extra=None, expect=None):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = FAKE_DIR
    env.update(env_extra or {})
    result = subprocess.run([STRATA] + args, capture_output=True, text=True, env=env, timeout=600)
    if expect is not None and result.returncode != expect:
        failures.append(f"strata {' '.join(args)}: exit {result.returncode}, wanted {expect}\n{result.stdout}\n{result.stderr}")
    return result


def record(path, fake, expect=None):
    return run(["record", "--no-benchmarks", "--out", path], {"STRATA_FAKE_CUDA": fake}, expect)


def entries(name, values, unit="ns", counters=None):
    out = []
    for i, v in enumerate(values):
        # Named as strata's runner names them: it times manually, so its
        # rate counters are per wall-clock second.
        timed = name + "/manual_time"
        e = {"name": timed, "family_index": 0, "per_family_instance_index": 0, "run_name": timed,
             "run_type": "iteration", "repetitions": len(values), "repetition_index": i, "threads": 1,
             "iterations": 100, "real_time": v, "cpu_time": v, "time_unit": unit}
        for key, fn in (counters or {}).items():
            e[key] = fn(v)
        out.append(e)
    return out


def with_benchmarks(template, node, series, gpu=None):
    doc = copy.deepcopy(template)
    doc["strata_record"]["node"] = node
    doc["strata_record"]["measurement"] = {"measured": True}
    if gpu:
        for g in doc["strata_record"]["environment"]["gpus"]:
            g["name"] = gpu
    doc["benchmarks"] = [e for name, values in series for e in entries(name, values)]
    return doc


def write(directory, name, doc):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def rollout(*args):
    result = run(["rollout", "--json"] + list(args))
    try:
        return result.returncode, json.loads(result.stdout), result
    except json.JSONDecodeError:
        failures.append(f"rollout {args}: no JSON: {result.stdout} {result.stderr}")
        return result.returncode, {}, result


work = tempfile.mkdtemp(prefix="strata-rollout-")
try:
    rng = random.Random(7)
    # 1. Two driver versions under the fault-injection driver; the candidate
    #    also loses NVML (a driver updated without a reboot: error 18).
    base_fake = "nvml_driver=570.86.15;version=12080;name=NVIDIA H100 80GB HBM3"
    cand_fake = "nvml_driver=580.65.06;version=13000;name=NVIDIA H100 80GB HBM3"
    record(f"{work}/base.json", base_fake)
    record(f"{work}/cand.json", cand_fake + ";nvml_init=18")
    record(f"{work}/cand_ok.json", cand_fake)
    base_rec = json.load(open(f"{work}/base.json"))
    check(base_rec["strata_record"]["schema_version"].startswith("1."), "record schema version")
    check(base_rec["benchmarks"] == [] and base_rec["strata_record"]["measurement"]["measured"] is False,
          "a record without benchmarks says they were not measured")
    check(base_rec["strata_record"]["environment"]["driver"]["nvml"] == "570.86.15", "record names the driver")
    text = run(["rollout", f"{work}/base.json", f"{work}/cand.json"], expect=1)
    check("decision: no-go" in text.stdout, "a check that fails only on CAND is a no-go:\n" + text.stdout)
    check("driver (libcuda's CUDA version): 12.8 -> 13.0" in text.stdout, "names the driver change:\n" + text.stdout)
    check("driver.version_agreement" in text.stdout.split("\n")[1], "the first reason names the changed check:\n" + text.stdout)

    # 2. Synthetic benchmarks with known shifts, one node per side, 20 repetitions.
    template = json.load(open(f"{work}/cand_ok.json"))
    base_template = json.load(open(f"{work}/base.json"))
    names = ["gemm/bf16/4096", "triad/1GiB", "copy/1GiB"]
    base_series = [(n, [1000 * (1 + 0.004 * rng.gauss(0, 1)) for _ in range(20)]) for n in names]

    def shifted(loss_by_name, gpu=None, node="n1"):
        series = []
        for n, values in base_series:
            loss = loss_by_name.get(n, 0)
            # A performance loss of x: the time grows by 1 / (1 - x).
            series.append((n, [1000 * (1 + 0.004 * rng.gauss(0, 1)) / (1 - loss) for _ in values]))
        return with_benchmarks(template, node, series, gpu)

    base_path = write(f"{work}/s", "base.json", with_benchmarks(base_template, "n1", base_series))
    cases = [("none", {}, None, 0, "go"), ("minus2", {n: 0.02 for n in names}, None, 0, "go"),
             ("minus8", {"triad/1GiB": 0.08}, None, 1, "no-go"),
             ("gpu", {}, "NVIDIA A100-SXM4-80GB", 1, "inconclusive")]
    for label, loss, gpu, code, decision in cases:
        cand_path = write(f"{work}/s", f"cand_{label}.json", shifted(loss, gpu))
        rc, doc, raw = rollout(base_path, cand_path)
        check(rc == code and doc.get("decision") == decision,
              f"{label}: exit {rc}, decision {doc.get('decision')}, wanted {decision}\n{raw.stdout[:3000]}")
        if label == "minus8":
            check(any("triad/1GiB" in r for r in doc["reasons"][:1]), f"no-go names the benchmark: {doc['reasons']}")
            triad = [b for b in doc["benchmarks"] if b["name"] == "triad/1GiB"][0]
            check(triad["evidence"].startswith("repetitions"), "one node per side: its repetitions")
        if label == "gpu":
            check(any(r.startswith("GPU model differs") for r in doc["reasons"]),
                  f"inconclusive names the GPU model: {doc['reasons']}")

    # 3. Plain Google Benchmark files are records that hold only benchmarks.
    def gb_file(node, series):
        return {"context": {"host_name": node, "date": "2026-12-03T00:00:00+00:00", "library_build_type": "release"},
                "benchmarks": [e for name, values in series for e in entries(name, values)]}
    gb_base = write(f"{work}/gb", "base.json", gb_file("g1", base_series))
    gb_cand = write(f"{work}/gb", "cand.json", gb_file("g1", [(n, [v * 1.001 for v in vs]) for n, vs in base_series]))
    rc, doc, raw = rollout(gb_base, gb_cand)
    check(rc == 0 and doc.get("decision") == "go", f"plain Google Benchmark files: {raw.stdout[:2000]}")
    check(any("carry no environment" in n for n in doc.get("notes", [])), "says what plain files cannot tell")
    broken = gb_file("g1", [(n, [v * 1.001 for v in vs]) for n, vs in base_series])
    for entry in broken["benchmarks"]:
        if entry["name"] == "copy/1GiB/manual_time":
            entry.update({"error_occurred": True, "error_message": "validation failed"})
    rc, doc, raw = rollout(gb_base, write(f"{work}/gb", "broken.json", broken))
    check(rc == 1 and doc.get("decision") == "no-go" and "copy/1GiB" in doc["reasons"][0]
          and "validation failed" in doc["reasons"][0], f"a benchmark failing only on CAND is a no-go: {doc.get('reasons')}")

    # 4. Statistics against scipy and a bootstrap: one node per side.
    a = [100 * (1 + 0.01 * rng.gauss(0, 1)) for _ in range(15)]
    b = [100 * 1.015 * (1 + 0.01 * rng.gauss(0, 1)) for _ in range(17)]
    pa = write(f"{work}/st", "a.json", gb_file("m1", [("k", a)]))
    pb = write(f"{work}/st", "b.json", gb_file("m1", [("k", b)]))
    rc, doc, raw = rollout(pa, pb)
    k = doc["benchmarks"][0]
    want_p = stats.mannwhitneyu(a, b).pvalue
    check(abs(k["p_value"] - want_p) < 1e-9, f"Mann-Whitney p {k['p_value']} vs scipy {want_p}")
    la, lb = np.log(a), np.log(b)
    boot = []
    nr = np.random.default_rng(3)
    for _ in range(3000):
        ra, rb = nr.choice(la, la.size), nr.choice(lb, lb.size)
        boot.append(np.median(np.subtract.outer(rb, ra)))
    lo, hi = np.percentile(boot, [2.5, 97.5])
    width = hi - lo
    got_lo, got_hi = np.log(k["low"]), np.log(k["high"])
    check(abs(got_lo - lo) < 0.35 * width and abs(got_hi - hi) < 0.35 * width,
          f"interval [{got_lo:.5f}, {got_hi:.5f}] vs bootstrap [{lo:.5f}, {hi:.5f}]")
    check(abs(np.log(k["ratio"]) - np.median(np.subtract.outer(lb, la))) < 1e-9, "Hodges-Lehmann estimate")

    # 5. Paired nodes (the same 8 nodes on both sides): Wilcoxon on per-node medians.
    base_dir, cand_dir = f"{work}/paired/base", f"{work}/paired/cand"
    medians_a, medians_b = [], []
    for i in range(8):
        node_speed = 1 + 0.05 * rng.gauss(0, 1)  # nodes differ far more than the change
        va = [1000 * node_speed * (1 + 0.003 * rng.gauss(0, 1)) for _ in range(5)]
        vb = [1000 * node_speed * 1.01 * (1 + 0.003 * rng.gauss(0, 1)) for _ in range(5)]
        medians_a.append(np.median(va))
        medians_b.append(np.median(vb))
        write(base_dir, f"n{i}.json", gb_file(f"n{i:02d}", [("allreduce", va)]))
        write(cand_dir, f"n{i}.json", gb_file(f"n{i:02d}", [("allreduce", vb)]))
    rc, doc, raw = rollout(base_dir, cand_dir)
    k = doc["benchmarks"][0]
    check(k["evidence"].startswith("paired nodes"), f"same nodes are paired: {k['evidence']}")
    d = np.log(medians_b) - np.log(medians_a)
    want = stats.wilcoxon(d)
    check(abs(k["p_value"] - want.pvalue) < 1e-9, f"Wilcoxon p {k['p_value']} vs scipy {want.pvalue}")
    walsh = [(d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d))]
    check(abs(np.log(k["ratio"]) - np.median(walsh)) < 1e-9, "paired Hodges-Lehmann estimate")
    check(doc["decision"] == "go", f"a 1% loss on paired nodes is within 3%: {doc['reasons']}")
    # The same figures as unpaired populations would drown in node-to-node spread.
    for i in range(8):
        os.rename(f"{cand_dir}/n{i}.json", f"{cand_dir}/m{i}.json")
        doc2 = json.load(open(f"{cand_dir}/m{i}.json"))
        doc2["context"]["host_name"] = f"m{i:02d}"
        json.dump(doc2, open(f"{cand_dir}/m{i}.json", "w"))
    rc, doc, raw = rollout(base_dir, cand_dir)
    k = doc["benchmarks"][0]
    check(k["evidence"].startswith("node populations"), f"different nodes: populations ({k['evidence']})")
    check(abs(k["p_value"] - stats.mannwhitneyu(medians_a, medians_b).pvalue) < 1e-9, "populations p vs scipy")
    check(doc["decision"] == "inconclusive" and "nodes per side would settle it" in k["reason"],
          f"node spread makes it inconclusive, naming what settles it: {k['reason']}")

    # 6. --compat-driver: two copies of the fake libcuda stand for the
    #    installed driver and a cuda-compat directory of a newer one.
    installed, compat = f"{work}/installed", f"{work}/cuda-13.1/compat"
    os.makedirs(installed)
    os.makedirs(compat)
    shutil.copy(f"{FAKE_DIR}/libcuda.so.1", f"{installed}/libcuda.so.1")
    shutil.copy(f"{FAKE_DIR}/libcuda.so.1", f"{compat}/libcuda.so.590.44.01")
    os.symlink("libcuda.so.590.44.01", f"{compat}/libcuda.so.1")
    with open(f"{compat}/strata-fake-cuda.conf", "w") as f:
        f.write("version=13010\n")
    compat_env = {"LD_LIBRARY_PATH": f"{installed}:{FAKE_DIR}", "STRATA_FAKE_CUDA": "name=NVIDIA H200"}

    def compat_run(*args):
        env = dict(os.environ)
        env.update(compat_env)
        return subprocess.run([STRATA, "rollout", "--compat-driver", *args], capture_output=True, text=True,
                              env=env, timeout=600)

    keep = f"{work}/sessions"
    r = compat_run(compat, "--sessions", "2", "--no-benchmarks", "--keep", keep)
    check(r.returncode == 1 and "decision: inconclusive" in r.stdout, f"compat A/B without benchmarks: {r.stdout}")
    check("driver (libcuda's CUDA version): 13.0 -> 13.1" in r.stdout, f"names the compat driver: {r.stdout}")
    order = [line.split(" (")[0] for line in r.stderr.splitlines() if "session" in line]
    check(order == ["BASE session 1", "CAND session 1", "BASE session 2", "CAND session 2"],
          f"sessions interleave A B A B: {order}")
    created = {name: json.load(open(f"{keep}/{name}.json"))["strata_record"]["created_at"]
               for name in ("base-1", "candidate-1", "base-2", "candidate-2")}
    check(created["base-1"] <= created["candidate-1"] <= created["base-2"] <= created["candidate-2"],
          f"records in session order: {created}")
    cand_doc = json.load(open(f"{keep}/candidate-1.json"))
    check(cand_doc["strata_record"]["environment"]["driver"].get("forward_compat") is True,
          "the candidate sessions ran the compat libcuda")
    check(any(c["id"] == "driver.forward_compat" and c["status"] == "pass"
              for c in cand_doc["strata_record"]["doctor"]["checks"]), "and doctor saw forward compatibility work")
    # The compat driver refuses this GPU (error 804): a no-go that says why.
    with open(f"{compat}/strata-fake-cuda.conf", "w") as f:
        f.write("version=13010;init=804\n")
    # Without --keep its session records go with it (issue #38 item 11).
    private_tmp = f"{work}/tmp"
    os.makedirs(private_tmp)
    compat_env["TMPDIR"] = private_tmp
    r = compat_run(compat, "--sessions", "1", "--no-benchmarks")
    check(r.returncode == 1 and "decision: no-go" in r.stdout and "804" in r.stdout, f"compat 804: {r.stdout}")
    check(os.listdir(private_tmp) == [] and "records not kept" in r.stdout,
          f"no session records left behind without --keep: {os.listdir(private_tmp)}")
    del compat_env["TMPDIR"]
    # Where forward compatibility cannot apply, nothing runs and the reason comes first.
    compat_env["STRATA_FAKE_CUDA"] = "name=NVIDIA GeForce RTX 4090"
    r = compat_run(compat, "--no-benchmarks")
    check(r.returncode == 1 and "forward compatibility does not apply" in r.stdout and "GeForce" in r.stdout,
          f"GeForce refused: {r.stdout} {r.stderr}")
    compat_env["STRATA_FAKE_CUDA"] = "name=NVIDIA H200"
    older = f"{work}/old/compat"
    os.makedirs(older)
    shutil.copy(f"{FAKE_DIR}/libcuda.so.1", f"{older}/libcuda.so.570.10.01")
    os.symlink("libcuda.so.570.10.01", f"{older}/libcuda.so.1")
    r = compat_run(older, "--no-benchmarks")
    check(r.returncode == 1 and "not newer than the kernel module (580.65.06)" in r.stdout, f"older compat: {r.stdout}")
    r = compat_run(f"{work}/installed/nothing")
    check(r.returncode == 2 and "not a directory" in r.stderr, f"missing compat dir: {r.stderr}")

    # 7. Bad input: one-line errors, exit 2.
    bad = write(f"{work}/bad", "truncated.json", {"benchmarks": []})
    with open(bad, "w") as f:
        f.write('{"benchmarks": [')
    for args in (["rollout", bad, gb_base], ["rollout", gb_base], ["rollout", gb_base, gb_cand, "--threshold", "0"],
                 ["rollout", f"{work}/nothing-here", gb_base], ["record"],
                 ["record", "--no-benchmarks", "--out", "/dev/null"], ["record", "--no-benchmarks", "--out", work]):
        r = run(args)
        check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
              f"{args}: exit {r.returncode}, stderr {r.stderr!r}")
finally:
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("rollout end to end: all checks passed")
