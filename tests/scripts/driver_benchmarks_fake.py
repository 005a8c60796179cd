#!/usr/bin/env python3
"""The driver plugin's benchmarks end to end under the fault-injection driver.

The fake libcuda runs a simulated device: copies and kernels advance their
stream's timeline by what STRATA_FAKE_CUDA says (gbps.*, kernel_us), and
host-visible costs are real waits (delay_us.<entry>, jit_ms). So the figures
must come back through the runner, the Google Benchmark JSON, `record` and
`rollout` exactly as configured; a driver that drops kernels, refuses PTX or
compiles slower must show as such, and one where nothing moved must be `go`.

usage: driver_benchmarks_fake.py STRATA FAKE_DRIVER_DIR SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema

STRATA, FAKE_DIR, SOURCE = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []

EXPECTED = [
    "context/cold_start/process=new",
    "context/create_destroy/flags=0",
    "module/load/image=cubin",
    "module/load/image=ptx,jit_cache=disabled",
    "memory/alloc_free/bytes=4096",
    "memory/alloc_free/bytes=2097152",
    "memory/alloc_free/bytes=67108864",
    "memory/alloc_free/bytes=1073741824",
    "memory/alloc_async_free_async/bytes=4096,pool=default",
    "memory/alloc_async_free_async/bytes=67108864,pool=default",
    "memory/alloc_async_free_async/bytes=1073741824,pool=default",
    "memory/host_alloc_free/bytes=4096",
    "memory/host_alloc_free/bytes=67108864",
    "memory/host_register_unregister/bytes=2097152",
    "memory/host_register_unregister/bytes=268435456",
    "copy/h2d/bytes=67108864,host=pinned",
    "copy/h2d/bytes=67108864,host=pageable",
    "copy/d2h/bytes=67108864,host=pinned",
    "copy/d2h/bytes=67108864,host=pageable",
    "copy/d2d/bytes=67108864,counted=once",
    "copy/h2d_bidirectional/bytes=67108864,host=pinned,reported=h2d",
    "launch/kernel/grid=1,block=1,sync=once",
    "launch/kernel_synchronize/grid=1,block=1",
    "launch/graph/nodes=1",
    "launch/graph/nodes=100",
    "sync/event_record_synchronize/idle_stream=1",
    "sync/stream_synchronize/idle_stream=1",
]

# Host-visible costs large enough that a loaded CI machine's noise is small
# beside them, so "nothing moved" is stable run to run. The fake moves every
# copy's bytes for real, so a fast simulated device-to-device copy would
# cost thousands of real 64 MiB copies per repetition (slow under ASan):
# 50 GB/s keeps it to a few dozen.
STEADY = ("kernels_run=1;name=NVIDIA H100 80GB HBM3;delay_us.cuModuleLoadDataEx=1500;"
          "gbps.h2d=20;gbps.d2h=22;gbps.pageable=8;gbps.d2d=50;kernel_us=3")


def validate(document, schema_name):
    """Against docs/<schema_name>, its references resolved among docs/ (no network)."""
    schemas = [json.load(open(os.path.join(SOURCE, "docs", n)))
               for n in os.listdir(os.path.join(SOURCE, "docs")) if n.endswith(".schema.json")]
    store = {s["$id"]: s for s in schemas if "$id" in s}
    schema = json.load(open(os.path.join(SOURCE, "docs", schema_name)))
    resolver = jsonschema.RefResolver(base_uri=schema.get("$id", ""), referrer=schema, store=store)
    jsonschema.validate(document, schema, resolver=resolver)


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(args, fake, home):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = FAKE_DIR
    env["STRATA_FAKE_CUDA"] = fake
    env["HOME"] = home  # the fake's compute cache, were it used
    return subprocess.run([STRATA] + args, capture_output=True, text=True, env=env, timeout=600)


def bench(work, label, fake, filter_="^driver/", repetitions="3"):
    out = f"{work}/{label}.json"
    # A generous deadline (the runner's budget follows it): what is tested
    # is the figures, not how fast this machine copies.
    result = run(["bench", "--filter", filter_, "--repetitions", repetitions, "--timeout", "600", "--out", out],
                 fake, work)
    check(result.returncode in (0, 1), f"bench {label}: exit {result.returncode}\n{result.stderr[-2000:]}")
    try:
        doc = json.load(open(out))
    except (OSError, json.JSONDecodeError) as error:
        failures.append(f"bench {label}: no results ({error})\n{result.stderr[-2000:]}")
        return {}
    # One entry per benchmark: the first repetition (errors repeat per repetition).
    by_name = {}
    for entry in doc["benchmarks"]:
        if entry.get("run_type", "iteration") != "iteration":
            continue
        key = entry["name"].removeprefix("driver/").split("/mode:")[0]
        by_name.setdefault(key, []).append(entry)
    return by_name


def near(got, want, tolerance=1e-3):
    return got is not None and abs(got - want) <= tolerance * abs(want)


work = tempfile.mkdtemp(prefix="strata-driver-bench-")
try:
    # 1. Every benchmark runs, hot only, and reports what the fake was told.
    fake = (STEADY + ";jit_ms=4;delay_us.cuCtxCreate_v2=250;delay_us.cuMemHostRegister_v2=300;"
            "delay_us.cuInit=800;delay_us.cuDevicePrimaryCtxRetain=400")
    results = bench(work, "all", fake)
    check(sorted(results) == sorted(EXPECTED), f"the driver's benchmarks: {sorted(results)}")
    for name, entries in results.items():
        for e in entries:
            check(not e.get("error_occurred"), f"{name}: {e.get('error_message')}")
            check("/mode:hot/" in e["name"], f"{name}: driver benchmarks run hot only ({e['name']})")
    first = {name: entries[0] for name, entries in results.items()}

    def rate(name):
        return first.get(name, {}).get("bytes_per_second")

    # nvbandwidth's conventions: bytes per copy x copies / event time, 1e9 bytes
    # per GB, a device-local copy counted once, bidirectional reporting the
    # measured direction only.
    for name, gbps in [("copy/h2d/bytes=67108864,host=pinned", 20), ("copy/h2d/bytes=67108864,host=pageable", 8),
                       ("copy/d2h/bytes=67108864,host=pinned", 22), ("copy/d2h/bytes=67108864,host=pageable", 8),
                       ("copy/d2d/bytes=67108864,counted=once", 50),
                       ("copy/h2d_bidirectional/bytes=67108864,host=pinned,reported=h2d", 20)]:
        check(near(rate(name), gbps * 1e9), f"{name}: {rate(name)} B/s, the fake's device moves {gbps} GB/s")
    ptx = first.get("module/load/image=ptx,jit_cache=disabled", {})
    cubin = first.get("module/load/image=cubin", {})
    check(ptx.get("jit_wall_ms") == 4, f"the JIT's own wall time (CU_JIT_WALL_TIME) is kept: {ptx.get('jit_wall_ms')}")
    check(ptx.get("time_unit") == "us" and ptx.get("real_time", 0) >= 1500 + 4000,
          f"a PTX load pays the JIT every time (the cache is disabled): {ptx.get('real_time')} us")
    check(1500 <= cubin.get("real_time", 0) < ptx.get("real_time", 0), "a cubin loads without the JIT")
    check(first.get("context/create_destroy/flags=0", {}).get("real_time", 0) >= 250, "cuCtxCreate's cost is timed")
    cold = first.get("context/cold_start/process=new", {})
    check(cold.get("init_ms", 0) >= 0.8 and cold.get("retain_ms", 0) >= 0.4 and cold.get("real_time", 0) >= 1200,
          f"a fresh process's cuInit and first retain, each timed, their sum the iteration: {cold}")
    check(first.get("memory/host_register_unregister/bytes=2097152", {}).get("real_time", 0) >= 300,
          "cuMemHostRegister's cost is timed")

    # 1b. Copies between two GPUs (nvbandwidth's device_to_device read and
    #     write), with peer access and staged through the host without it,
    #     and the latency of a 4-byte copy; on one GPU they are not run and
    #     bench says why, without an error.
    one = run(["bench", "--filter", "^driver/copy/(peer|d2d)", "--repetitions", "2", "--out", f"{work}/one.json"],
              STEADY, work)
    check(one.returncode == 0 and "driver: 5 benchmark(s) not run: CUDA sees 1 GPU(s): copy/peer_read/" in one.stdout
          and "error" not in one.stdout.lower(), f"one GPU: the copies between GPUs are not run, and that is no "
          f"error (exit {one.returncode}):\n{one.stdout}\n{one.stderr[-1000:]}")
    only_peers = run(["bench", "--filter", "^driver/copy/peer"], STEADY, work)
    check(only_peers.returncode == 2 and "no benchmark matches" in only_peers.stderr,
          f"one GPU, only copies between GPUs asked for: nothing to plan ({only_peers.stderr[-300:]})")
    two_gpus = STEADY + ";devices=2;gbps.peer=40;gbps.peer_staged=9;peer_latency_us=0;staged_latency_us=0"
    peers = bench(work, "peers", two_gpus, "^driver/copy/peer_(read|write)")
    for name, gbps in [("copy/peer_read/bytes=67108864,peer=next,access=enabled", 40),
                       ("copy/peer_write/bytes=67108864,peer=next,access=enabled", 40),
                       ("copy/peer_read/bytes=67108864,peer=next,access=disabled", 9),
                       ("copy/peer_write/bytes=67108864,peer=next,access=disabled", 9)]:
        got = peers.get(name, [{}])[0]
        check(not got.get("error_occurred") and near(got.get("bytes_per_second"), gbps * 1e9),
              f"{name}: {got.get('bytes_per_second')} B/s, the fake's peer path moves {gbps} GB/s: {got}")
    latency = bench(work, "latency", STEADY + ";devices=2;peer_latency_us=3", "^driver/copy/peer_latency")
    got = latency.get("copy/peer_latency/bytes=4,peer=next,access=enabled", [{}])[0]
    check(got.get("time_unit") == "us" and near(got.get("real_time"), 3.0, 0.01),
          f"a 4-byte copy between GPUs costs the fake's 3 us: {got}")
    # GPUs without a peer-to-peer path: the direct copies say so; the staged ones run.
    blocked = bench(work, "blocked", STEADY + ";devices=2;p2p=0", "^driver/copy/peer_read")
    direct = blocked.get("copy/peer_read/bytes=67108864,peer=next,access=enabled", [{}])[0]
    staged = blocked.get("copy/peer_read/bytes=67108864,peer=next,access=disabled", [{}])[0]
    check(direct.get("error_occurred") and "no peer-to-peer path" in direct.get("error_message", ""),
          f"no peer-to-peer path is named: {direct}")
    check(not staged.get("error_occurred") and staged.get("bytes_per_second"), f"staged copies still run: {staged}")

    # 2. A driver that accepts launches and drops the work: every launch
    #    benchmark is refused by its validation, with the reason; the copies,
    #    which do their work, still run.
    dropped = bench(work, "dropped", STEADY.replace("kernels_run=1", "kernels_run=0"), "^driver/(launch|copy/d2d)")
    for name, entries in dropped.items():
        e = entries[0]
        if name.startswith("launch/"):
            check(e.get("error_occurred") and "returned success but" in e.get("error_message", ""),
                  f"{name} under a driver that drops kernels: {e.get('error_message')}")
        else:
            check(not e.get("error_occurred"), f"{name} does not launch kernels: {e.get('error_message')}")

    # 3. A driver whose JIT refuses the PTX: the load fails with the driver's
    #    error and JIT log; the cubin still loads.
    refused = bench(work, "refused", STEADY + ";ptx_load=218", "^driver/module")
    e = refused.get("module/load/image=ptx,jit_cache=disabled", [{}])[0]
    check(e.get("error_occurred") and "CUDA_ERROR_INVALID_PTX" in e.get("error_message", "")
          and "JIT log" in e.get("error_message", ""), f"a refused PTX names the error and its log: {e}")
    check(not refused.get("module/load/image=cubin", [{}])[0].get("error_occurred"), "the cubin still loads")

    # 4. record under two drivers, then rollout: go where nothing moved;
    #    no-go naming the slower JIT and the slower pageable copy; no-go
    #    naming the refused module.
    base_driver = "nvml_driver=570.86.15;version=12080;"
    cand_driver = "nvml_driver=580.65.06;version=13000;"
    judged = "^driver/(module|copy)"

    def record(label, fake, filter_=judged):
        path = f"{work}/{label}.record.json"
        result = run(["record", "--filter", filter_, "--repetitions", "8", "--timeout", "600", "--out", path],
                     fake, work)
        check(os.path.exists(path), f"record {label}: exit {result.returncode}\n{result.stderr[-2000:]}")
        return path

    base = record("base", base_driver + STEADY + ";jit_ms=5")
    # "Nothing moved" on the figures the fake sets exactly (device time):
    # whether host-timed ones hold still between two records is this
    # machine's load, not strata's judgement (section 1 checks those).
    steady_base = record("steady_base", base_driver + STEADY, "^driver/copy")
    same = record("same", cand_driver + STEADY, "^driver/copy")
    slower = record("slower", cand_driver + STEADY.replace("gbps.pageable=8", "gbps.pageable=6") + ";jit_ms=25")
    refusing = record("refusing", cand_driver + STEADY + ";jit_ms=5;ptx_load=218")
    base_doc = json.load(open(base))
    recorded = [b for b in base_doc.get("benchmarks", []) if b["name"].startswith("driver/copy/h2d/")]
    check(recorded and near(recorded[0].get("bytes_per_second"), 20e9), "the record keeps the fake's figures unchanged")

    def rollout(candidate, baseline=base):
        result = run(["rollout", "--json", baseline, candidate], "", work)
        try:
            doc = json.loads(result.stdout)
            validate(doc, "rollout.schema.json")
            driver_rows = [b for b in doc["benchmarks"] if b["name"].startswith("driver/")]
            check(driver_rows and all(b["group"] == "driver-facing" for b in driver_rows),
                  "the driver's benchmarks are grouped as driver-facing")
            return result.returncode, doc
        except json.JSONDecodeError:
            failures.append(f"rollout {candidate}: no JSON\n{result.stdout}\n{result.stderr}")
            return result.returncode, {}

    rc, doc = rollout(same, steady_base)
    check(rc == 0 and doc.get("decision") == "go" and len(doc.get("benchmarks", [])) == 6,
          f"nothing moved: {doc.get('decision')} {doc.get('reasons')}")
    rc, doc = rollout(slower)
    reasons = " | ".join(doc.get("reasons", []))
    check(rc == 1 and doc.get("decision") == "no-go", f"a slower JIT is a no-go: {doc.get('decision')} {reasons}")
    check("module/load/image=ptx" in reasons, f"the no-go names the slower JIT: {reasons}")
    check("copy/h2d/bytes=67108864,host=pageable" in reasons, f"the no-go names the slower pageable copy: {reasons}")
    # Of what did not move, the device-timed figures (the fake sets them
    # exactly); a host-timed cubin load moves with this machine's load.
    check(all(name not in reasons for name in ("host=pinned", "copy/d2d/", "h2d_bidirectional")),
          f"what did not move is not named: {reasons}")
    copies = [b for b in doc.get("benchmarks", []) if "copy/h2d/" in b["name"] and "pageable" in b["name"]]
    check(copies and copies[0].get("bigger_is_better") is True and near(copies[0].get("ratio"), 6 / 8, 0.01),
          f"a copy is judged by its bandwidth, bigger is better, 6/8: {copies[:1]}")
    check(copies and copies[0].get("quoted") == "BASE 8 GB/s, CAND 6 GB/s",
          f"each side in the unit people quote: {copies[0].get('quoted') if copies else None}")
    text = run(["rollout", base, slower], "", work).stdout
    check("  driver-facing:\n" in text and "BASE 8 GB/s, CAND 6 GB/s" in text,
          f"the text report groups the driver-facing benchmarks and quotes GB/s:\n{text}")
    rc, doc = rollout(refusing)
    reasons = " | ".join(doc.get("reasons", []))
    check(rc == 1 and doc.get("decision") == "no-go" and "module/load/image=ptx" in reasons
          and "CUDA_ERROR_INVALID_PTX" in reasons, f"a refused module is a no-go, with the driver's error: {reasons}")
finally:
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("driver benchmarks under the fault-injection driver: all checks passed")
