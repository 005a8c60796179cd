#!/usr/bin/env bash
# `strata fleet` over 1,000 node records: 40 benchmarks x 10 repetitions per
# node (Google Benchmark files), two GPU models, 1% of nodes 15% slower, and
# the same over 100 nodes (bench/fleet_records.py). Several runs each
# (hyperfine), medians. The peer is what a fleet operator would otherwise
# write: a Python script that reads the same files, groups the nodes by GPU,
# and flags per benchmark the nodes beyond 3 scaled MADs of the group's
# median (the same rule, without check grouping, configuration or the
# report); the ratio says what strata's whole analysis costs against that.
# Usage: bench/fleet_scale.sh [BUILD_DIR]   (default: build)
source "$(dirname "$0")/preamble.sh" "$@"
/usr/bin/python3 "$root/bench/fleet_records.py" "$out"
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
