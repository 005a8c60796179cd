#!/usr/bin/env python3
"""`strata fleet` end to end, without a GPU.

Two records are written by `strata record` under the fault-injection driver
(standing for driver 580.65.06 and 570.86.15); per-node copies get synthetic
Google Benchmark results: identical nodes with 0.3% noise, one node 15%
slower, one node on the other driver, one expected node missing. The lines
`strata fleet` prints must be exactly the expected ones; --min-deviation,
the MAD floor, --json (against docs/fleet.schema.json), --markdown,
--prometheus (promtool, where installed), --drain and bad input are checked
too.

usage: fleet_end_to_end.py STRATA FAKE_DRIVER_DIR SOURCE_DIR
"""
import copy
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema

STRATA, FAKE_DIR, SOURCE = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
# The fake driver has no kernel module and no cudart entry points: these
# fail on every node of this test fleet, as they would on a GPU-less host.
IGNORE = ["--ignore-check", "driver.kernel_module", "--ignore-check", "runtime.*"]


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(args, env_extra=None):
    env = dict(os.environ)
    env.pop("SLURM_JOB_NODELIST", None)
    env["LD_LIBRARY_PATH"] = FAKE_DIR
    env.update(env_extra or {})
    return subprocess.run([STRATA] + args, capture_output=True, text=True, env=env, timeout=600)


def entries(name, values, counter=None):
    out = []
    for i, v in enumerate(values):
        # Named as strata's runner names them: it times manually, so its
        # rate counters are per wall-clock second.
        timed = name + "/manual_time"
        e = {"name": timed, "family_index": 0, "per_family_instance_index": 0, "run_name": timed,
             "run_type": "iteration", "repetitions": len(values), "repetition_index": i, "threads": 1,
             "iterations": 100, "real_time": v, "cpu_time": v, "time_unit": "ns"}
        if counter:
            e[counter] = 1e18 / v
        out.append(e)
    return out


def node_record(template, node, gemm_ns, copy_ns, rng):
    doc = copy.deepcopy(template)
    doc["strata_record"]["node"] = node
    doc["strata_record"]["measurement"] = {"measured": True}
    noise = lambda: [x * (1 + rng.uniform(-0.003, 0.003)) for x in [1.0] * 5]
    doc["benchmarks"] = (entries("gemm/bf16/8192", [gemm_ns * n for n in noise()], "flops_per_second") +
                         entries("copy/d2d/1GiB", [copy_ns * n for n in noise()]))
    return doc


def fleet(directory, *args):
    result = run(["fleet", directory] + IGNORE + list(args))
    return result


def fail_lines(text):
    return [line.strip()[6:] for line in text.splitlines() if line.strip().startswith("FAIL  ")]


work = tempfile.mkdtemp(prefix="strata-fleet-")
try:
    rng = random.Random(11)
    templates = {}
    for driver in ("580.65.06", "570.86.15"):
        path = f"{work}/{driver}.json"
        result = run(["record", "--no-benchmarks", "--out", path],
                     {"STRATA_FAKE_CUDA": f"nvml_driver={driver};name=NVIDIA H200"})
        check(os.path.exists(path), f"record under driver {driver}: {result.stderr}")
        templates[driver] = json.load(open(path))

    records = f"{work}/records"
    os.makedirs(records)
    for i in range(1, 8):
        node = f"n{i:02d}"
        driver = "570.86.15" if node == "n07" else "580.65.06"
        gemm = 1.41e6 / (0.85 if node == "n05" else 1.0)  # n05: 15% slower
        doc = node_record(templates[driver], node, gemm, 2.5e5, rng)
        json.dump(doc, open(f"{records}/{node}.json", "w"))

    # 1. The expected lines, exactly.
    result = fleet(records, "--expect", "n[01-08]")
    check(result.returncode == 1, f"attention: exit {result.returncode}\n{result.stdout}{result.stderr}")
    lines = fail_lines(result.stdout)
    check(len(lines) == 3, f"three problems, got {lines}")
    check(lines and lines[0] == "no record from n08 (1 of 8 nodes expected by --expect)", f"missing node: {lines}")
    check(len(lines) > 1 and lines[1] == "driver (NVML) is 570.86.15 on n07, 580.65.06 on 6 node(s)",
          f"other driver: {lines}")
    check(len(lines) > 2 and re.fullmatch(r"n05 is slower than its 5 like nodes on 1 of 2 benchmarks: "
                                          r"gemm/bf16/8192 \(kernels and libraries\) -1[45]\.[0-9]% FLOP/s \(slower\) against "
                                          r"their median 0\.7[0-9]+ TFLOP/s", lines[2]),
          f"outlier: {lines}")
    check("fleet: 7 node(s) reported of 8 expected, 7 record(s); 3 need attention: n[05,07-08]" in result.stdout,
          f"headline: {result.stdout}")
    check("n07 (1 node), too small to judge performance (3 nodes needed)" in result.stdout,
          f"the other driver's group is too small: {result.stdout}")
    check("copy/d2d" not in "\n".join(lines), "no outlier in the identical copy benchmark")

    # 1b. An analysis that judged nothing is not a pass (issue #38 item 6):
    # a misspelt metric is bad input; a --min-group no group reaches fails.
    result = fleet(records, "--metric", "flops_per_secnod")
    check(result.returncode == 2 and result.stderr.startswith("strata: error: --metric 'flops_per_secnod': no benchmark")
          and result.stderr.count("\n") == 1, f"misspelt metric: exit {result.returncode}\n{result.stderr}")
    result = fleet(records, "--min-group", "9")
    check(result.returncode == 1 and "  FAIL  performance not judged: no group of like nodes has 9 nodes "
          "that measured a benchmark (--min-group 9; the largest has 6)" in result.stdout,
          f"--min-group beyond every group: exit {result.returncode}\n{result.stdout}")
    result = fleet(records, "--min-group", "9", "--json")
    check(json.loads(result.stdout)["not_judged"].startswith("performance not judged"), "not_judged in JSON")

    # 2. JSON: the schema, and the figures behind the lines.
    result = fleet(records, "--expect", "n[01-08]", "--json")
    doc = json.loads(result.stdout)
    schema = json.load(open(f"{SOURCE}/docs/fleet.schema.json"))
    jsonschema.validate(doc, schema)
    kinds = [(p["kind"], p["subject"], p["nodes"]) for p in doc["problems"] if p["attention"]]
    check(kinds == [("missing", "record", ["n08"]), ("configuration", "driver (NVML)", ["n07"]),
                    ("outlier", "gemm/bf16/8192", ["n05"])], f"JSON problems: {kinds}")
    outlier = [p for p in doc["problems"] if p["kind"] == "outlier"][0]
    check(outlier["deviations"][0]["metric"] == "flops_per_second",
          f"the rate counter is judged: {outlier['deviations']}")
    check(len(outlier["deviations"]) == 1 and outlier["deviations"][0]["benchmark"] == "gemm/bf16/8192",
          f"only gemm is slower: {outlier['deviations']}")
    check(abs(outlier["deviations"][0]["relative"] + 0.15) < 0.005, f"-15%: {outlier['deviations']}")
    check(outlier["deviations"][0]["robust_deviations"] > 3, "beyond 3 robust deviations")
    check([a["node"] for a in doc["attention"]] == ["n05", "n07", "n08"], f"attention: {doc['attention']}")

    # 3. --min-deviation above the loss: n05 is no longer an outlier.
    result = fleet(records, "--expect", "n[01-08]", "--min-deviation", "20%")
    check(not any("slower" in line for line in fail_lines(result.stdout)), f"20% floor: {result.stdout}")

    # 4. Identical nodes only, all there: nothing needs attention, exit 0.
    same = f"{work}/same"
    os.makedirs(same)
    for i in range(1, 7):
        json.dump(node_record(templates["580.65.06"], f"g{i}", 1.41e6, 2.5e5, rng), open(f"{same}/g{i}.json", "w"))
    result = fleet(same, "--expect", "g[1-6]")
    check(result.returncode == 0 and fail_lines(result.stdout) == [],
          f"identical nodes: exit {result.returncode}\n{result.stdout}")
    # The MAD of identical nodes is ~0: 2% is below the floored spread x 3 ...
    doc = node_record(templates["580.65.06"], "g6", 1.41e6 / 0.98, 2.5e5, rng)
    json.dump(doc, open(f"{same}/g6.json", "w"))
    check(fleet(same).returncode == 0, "2% slower is within the noise floor")
    # ... 6% is beyond it.
    doc = node_record(templates["580.65.06"], "g6", 1.41e6 / 0.94, 2.5e5, rng)
    json.dump(doc, open(f"{same}/g6.json", "w"))
    result = fleet(same)
    check(result.returncode == 1 and "g6 is slower than its 5 like nodes" in result.stdout,
          f"6% slower: {result.stdout}")

    # 5. Inside a Slurm job the job's nodes are expected.
    result = run(["fleet", records] + IGNORE, {"SLURM_JOB_NODELIST": "n[01-09]"})
    check("no record from n[08-09] (2 of 9 nodes expected by the Slurm job" in result.stdout,
          f"job nodes: {result.stdout}")

    # 6. --drain prints, and only prints, the scontrol commands.
    result = fleet(records, "--expect", "n[01-08]", "--drain")
    drains = [line for line in result.stdout.splitlines() if line.startswith("scontrol ")]
    drains = [re.sub(r"-1[45]\.[0-9]%", "-15%", line) for line in drains]
    check(drains == ["scontrol update nodename=n05 state=drain "
                     "'reason=strata-fleet: slower than like nodes on 1 benchmark(s), worst gemm/bf16/8192 -15% FLOP/s'",
                     "scontrol update nodename=n07 state=drain "
                     "'reason=strata-fleet: driver (NVML) 570.86.15 (fleet: 580.65.06)'",
                     "scontrol update nodename=n08 state=drain 'reason=strata-fleet: no record from this node'"],
          f"drain commands: {drains}")

    # 7. Markdown and Prometheus.
    result = fleet(records, "--markdown")
    check(result.stdout.startswith("## strata fleet") and "| FAIL |" in result.stdout, "markdown")
    prom = f"{work}/fleet.prom"
    result = fleet(records, "--expect", "n[01-08]", "--prometheus", prom)
    text = open(prom).read()
    check('strata_fleet_node_attention{node="n05"} 1' in text and 'strata_fleet_node_attention{node="n01"} 0' in text,
          f"attention gauges: {text}")
    check('strata_fleet_nodes{state="missing"} 1' in text, "missing gauge")
    if shutil.which("promtool"):
        checked = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
        check(checked.returncode == 0, f"promtool: {checked.stdout}{checked.stderr}")

    # 8. A plain Google Benchmark file (written by Google Benchmark itself) is a record.
    gb = f"{work}/gb"
    os.makedirs(gb)
    shutil.copy(f"{SOURCE}/tests/bench/google_benchmark_base.json", f"{gb}/a.json")
    result = run(["fleet", gb])
    check(result.returncode == 1 and "1 node(s) reported" in result.stdout and "performance not judged" in result.stdout,
          f"GB file, one node, nothing judged: {result.stdout}{result.stderr}")

    # 9. --ignore-check in doctor: the real status stays, marked ignored, and
    #    the report is still valid against its schema.
    result = run(["doctor", "--json", "--ignore-check", "driver.kernel_module", "--ignore-check", "runtime.*"],
                 {"STRATA_FAKE_CUDA": "name=NVIDIA H200"})
    report = json.loads(result.stdout)
    jsonschema.validate(report, json.load(open(f"{SOURCE}/docs/report.schema.json")))
    module = [c for c in report["checks"] if c["id"] == "driver.kernel_module"][0]
    check(module["status"] == "fail" and module.get("ignored") is True, f"ignored check: {module}")
    check(result.returncode == 0, f"only ignored checks failed: exit {result.returncode}")
    result = run(["doctor", "--ignore-check", "driver.kernel_module"], {"STRATA_FAKE_CUDA": "name=NVIDIA H200"})
    check(result.returncode == 1 and "(ignored) no NVIDIA kernel module loaded" in result.stdout,
          f"one failure left: exit {result.returncode}")

    # 10. Bad input: one line, exit 2.
    for args, needle in ((["fleet", f"{work}/nothing"], "no such file"),
                         (["fleet", records, "--expect", "n[1-"], "without its ']'"),
                         (["fleet", records, "--expect", "n[1-99999999]"], "more than"),
                         (["fleet", records, "--min-deviation", "abc"], "--min-deviation"),
                         (["fleet", records, "--yes"], "--drain")):
        result = run(args)
        check(result.returncode == 2 and needle in result.stderr and result.stderr.count("\n") == 1,
              f"{args}: exit {result.returncode}: {result.stderr}")
    # 11. One node's record cut off mid-write: the rest of the fleet is still
    #     judged, the file is named with its reason, exit 1. Only when no
    #     record at all can be read is it bad input (exit 2, below).
    partial = f"{work}/partial"
    shutil.copytree(records, partial)
    open(f"{partial}/n08.json", "w").write(open(f"{records}/n01.json").read()[:500])
    os.mkfifo(f"{partial}/n09.json")
    open(f"{partial}/n10\nFAIL  forged.json", "w").write("{")
    result = fleet(partial, "--expect", "n[01-09]", "--prometheus", f"{work}/partial.prom")
    lines = fail_lines(result.stdout)
    check(result.returncode == 1, f"unreadable records: exit {result.returncode}\n{result.stdout}{result.stderr}")
    check(any(line.startswith("unreadable record, its node counted as not reported: ") and "n08.json" in line
              for line in lines), f"the truncated record is named: {lines}")
    check(any("n09.json" in line and "FIFO" in line for line in lines), f"the FIFO is named: {lines}")
    check(any("n10\\nFAIL  forged.json" in line for line in lines), f"a line break in a name is shown: {lines}")
    check(not any(line.startswith("forged") for line in lines), f"and forges no FAIL line: {lines}")
    check("no record from n[08-09] (2 of 9 nodes expected by --expect); 3 unreadable record(s) may be theirs"
          in lines, f"their nodes are not reported: {lines}")
    check(any(line.startswith("n05 is slower") for line in lines), f"the rest is still judged: {lines}")
    check("7 record(s) (3 unreadable)" in result.stdout, f"headline: {result.stdout}")
    check("strata_fleet_unreadable_records 3" in open(f"{work}/partial.prom").read(), "the Prometheus gauge")
    doc = json.loads(fleet(partial, "--json").stdout)
    jsonschema.validate(doc, json.load(open(f"{SOURCE}/docs/fleet.schema.json")))
    check([os.path.basename(u["path"]) for u in doc["unreadable"]] == ["n08.json", "n09.json",
                                                                          "n10\nFAIL  forged.json"],
          f"JSON unreadable: {doc['unreadable']}")
    os.remove(f"{partial}/n09.json")
    os.remove(f"{partial}/n10\nFAIL  forged.json")
    bad = f"{work}/bad"
    os.makedirs(bad)
    open(f"{bad}/truncated.json", "w").write(open(f"{records}/n01.json").read()[:500])
    result = run(["fleet", bad])
    check(result.returncode == 2 and "truncated.json" in result.stderr, f"truncated record: {result.stderr}")
    evil = json.load(open(f"{records}/n01.json"))
    evil["strata_record"]["node"] = "n01\nFAIL  forged line"
    json.dump(evil, open(f"{bad}/truncated.json", "w"))
    result = run(["fleet", bad])
    check(result.returncode == 2 and "not a host name" in result.stderr, f"a node name with a newline: {result.stderr}")
finally:
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("fleet end to end: all checks passed")
