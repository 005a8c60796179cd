#!/usr/bin/env bash
# `strata rollout` on a fleet-sized qualification: 16 and 128 nodes per side,
# 40 benchmarks, 10 repetitions each, the same nodes on both sides (paired),
# as Google Benchmark files in two directories. Several runs each
# (hyperfine), medians. The peer is what a user would otherwise write: a
# Python script with scipy that reads the same files and runs the same
# per-benchmark tests (Wilcoxon signed-rank on per-node medians) without
# intervals or a decision; the ratio says what strata's whole decision costs
# against that.
# Usage: bench/rollout_scale.sh [BUILD_DIR]   (default: build; needs python3-scipy)
source "$(dirname "$0")/preamble.sh" "$@"
/usr/bin/python3 - "$out" <<'PY'
import json, os, random, sys
out = sys.argv[1]
rng = random.Random(5)
for nodes in (16, 128):
    for side, shift in (("base", 1.0), ("cand", 1.01)):
        directory = f"{out}/{nodes}/{side}"
        os.makedirs(directory)
        for n in range(nodes):
            speed = 1 + 0.03 * rng.gauss(0, 1)
            rows = []
            for b in range(40):
                name = f"plugin/bench_{b}/size:{1 << (b % 12)}/mode:hot/device:0"
                for r in range(10):
                    t = 1000 * (b + 1) * speed * shift * (1 + 0.005 * rng.gauss(0, 1))
                    rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": 10,
                                 "repetition_index": r, "iterations": 100, "real_time": t, "cpu_time": t,
                                 "time_unit": "ns"})
            json.dump({"context": {"host_name": f"gpu{n:03d}"}, "benchmarks": rows},
                      open(f"{directory}/gpu{n:03d}.json", "w"))
PY
cat >"$out/peer.py" <<'PY'
import glob, json, statistics, sys
from scipy import stats
def side(directory):
    nodes = {}
    for path in glob.glob(f"{directory}/*.json"):
        doc = json.load(open(path))
        per = nodes.setdefault(doc["context"]["host_name"], {})
        for b in doc["benchmarks"]:
            per.setdefault(b["run_name"], []).append(b["real_time"])
    return nodes
base, cand = side(sys.argv[1]), side(sys.argv[2])
names = sorted(next(iter(base.values())))
for name in names:
    common = sorted(set(base) & set(cand))
    d = [statistics.median(cand[n][name]) / statistics.median(base[n][name]) for n in common]
    stats.wilcoxon([x - 1 for x in d])
PY
for nodes in 16 128; do
  hyperfine --warmup 1 --runs 5 --export-json "$out/rollout-$nodes.json" -i \
    "$strata rollout $out/$nodes/base $out/$nodes/cand" \
    "/usr/bin/python3 $out/peer.py $out/$nodes/base $out/$nodes/cand" >/dev/null
  echo "== $nodes nodes per side, 40 benchmarks x 10 repetitions (strata rollout, then the scipy script)"
  /usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/rollout-$nodes.json"
  echo
done
"$strata" rollout "$out/128/base" "$out/128/cand" | head -4
