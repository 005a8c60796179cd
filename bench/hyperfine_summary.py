"""Summarises a hyperfine JSON export: median, min and max per command and
each median's ratio to the first command's. Used by the bench/ scripts.

Usage: python3 bench/hyperfine_summary.py RESULTS.json [BUDGET_MS]
With BUDGET_MS, also says whether the first command's median is within it."""
import json
import statistics
import sys

results = json.load(open(sys.argv[1]))["results"]
base = statistics.median(results[0]["times"])
width = max(len(r["command"]) for r in results) + 2
print(f"{'command':{width}} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'vs first':>9}")
for r in results:
    median = statistics.median(r["times"])
    print(f"{r['command']:{width}} {median*1e3:10.2f} {min(r['times'])*1e3:8.2f} {max(r['times'])*1e3:8.2f} "
          f"{median/base:8.2f}x")
if len(sys.argv) > 2:
    budget = float(sys.argv[2]) / 1e3
    verdict = "within" if base < budget else "OVER"
    print(f"\n{results[0]['command']}: median {base*1e3:.2f} ms over {len(results[0]['times'])} runs "
          f"({verdict} the {sys.argv[2]} ms budget)")
