#!/usr/bin/env bash
# `strata fleet` over 1,000 node records: 40 benchmarks x 10 repetitions per
# node (Google Benchmark files), two GPU models, 1% of nodes 15% slower, and
# the same over 100 nodes. Several runs each (hyperfine), medians. The peer
# is what a fleet operator would otherwise write: a Python script that reads
# the same files, groups the nodes by GPU, and flags per benchmark the nodes
# beyond 3 scaled MADs of the group's median (the same rule, without check
# grouping, configuration or the report); the ratio says what strata's whole
# analysis costs against that.
# Usage: bench/fleet_scale.sh [BUILD_DIR]   (default: build)
source "$(dirname "$0")/preamble.sh" "$@"
/usr/bin/python3 - "$out" <<'PY'
import json, os, random, sys
out = sys.argv[1]
rng = random.Random(9)
for nodes in (100, 1000):
    directory = f"{out}/{nodes}"
    os.makedirs(directory)
    for n in range(nodes):
        gpu = "NVIDIA H200" if n % 4 else "NVIDIA H100 80GB HBM3"
        slow = 1.15 if n % 100 == 7 else 1.0
        speed = (1 + 0.004 * rng.gauss(0, 1)) * slow * (1.3 if "H100" in gpu else 1.0)
        rows = []
        for b in range(40):
            name = f"plugin/bench_{b}/size:{1 << (b % 12)}/mode:hot/device:0"
            for r in range(10):
                t = 1000 * (b + 1) * speed * (1 + 0.003 * rng.gauss(0, 1))
                rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": 10,
                             "repetition_index": r, "iterations": 100, "real_time": t, "cpu_time": t,
                             "time_unit": "ns"})
        context = {"host_name": f"gpu{n:04d}",
                   "strata": {"environment": {"device.0.name": {"value": gpu}},
                              "clock_policy": None}}
        json.dump({"context": context, "benchmarks": rows}, open(f"{directory}/gpu{n:04d}.json", "w"))
PY
cat >"$out/peer.py" <<'PY'
import glob, json, statistics, sys
groups = {}
for path in glob.glob(f"{sys.argv[1]}/*.json"):
    doc = json.load(open(path))
    gpu = doc["context"]["strata"]["environment"]["device.0.name"]["value"]
    per = groups.setdefault(gpu, {}).setdefault(doc["context"]["host_name"], {})
    for b in doc["benchmarks"]:
        per.setdefault(b["run_name"], []).append(b["real_time"])
outliers = set()
for gpu, nodes in groups.items():
    for name in next(iter(nodes.values())):
        medians = {n: statistics.median(v[name]) for n, v in nodes.items()}
        center = statistics.median(medians.values())
        mad = statistics.median(abs(m - center) for m in medians.values())
        spread = max(1.4826 * mad, 0.01 * center)
        outliers.update(n for n, m in medians.items() if m - center > 3 * spread)
print(len(outliers), "outlier nodes")
PY
for nodes in 100 1000; do
  hyperfine --warmup 1 --runs 5 --export-json "$out/fleet-$nodes.json" -i \
    "$strata fleet $out/$nodes" "/usr/bin/python3 $out/peer.py $out/$nodes" >/dev/null
  echo "== $nodes node records, 40 benchmarks x 10 repetitions (strata fleet, then the Python script)"
  /usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/fleet-$nodes.json"
  echo
done
/usr/bin/time -f "strata fleet over 1000 records: %e s, %M KB peak memory" "$strata" fleet "$out/1000" >"$out/report.txt" || true
head -4 "$out/report.txt"
/usr/bin/python3 "$out/peer.py" "$out/1000"
