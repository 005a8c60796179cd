#!/usr/bin/env bash
# What `--html` costs and what the browser does with it, on the fleet that
# tests/scripts/html_reports.py only touches: 1,000 nodes (and 100) with 40
# benchmarks x 10 repetitions each in two groups of like nodes, 1% of the
# nodes 15% slower (bench/fleet_records.py, as bench/fleet_scale.sh uses).
# Per size: `strata fleet` with and without --html (hyperfine, medians; the
# ratio is what the page adds to the analysis), the page's size, and the time Debian's chromium takes to
# load it and draw its first frame (the median of 5 loads in one browser).
# Usage: bench/html_reports.sh [BUILD_DIR]   (default: build)
source "$(dirname "$0")/preamble.sh" "$@"
chromium=/usr/lib/chromium/chromium
[ -x "$chromium" ] || { echo "bench: $chromium missing (scripts/setup --test installs it)" >&2; exit 2; }
/usr/bin/python3 "$root/bench/fleet_records.py" "$out"
for nodes in 100 1000; do
  hyperfine --warmup 1 --runs 5 -i --export-json "$out/fleet-$nodes.json" \
    "$strata fleet $out/$nodes" "$strata fleet $out/$nodes --html $out/fleet-$nodes.html" >/dev/null
done
/usr/bin/python3 - "$root" "$chromium" "$out" <<'PY'
import os, statistics, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests", "scripts"))
from headless_browser import Browser
chromium, out = sys.argv[2], sys.argv[3]
browser = Browser(chromium)
try:
    for nodes in (100, 1000):
        page = f"{out}/fleet-{nodes}.html"
        loads, frames = [], []
        for _ in range(5):
            seconds, _ = browser.load(page)
            # The first frame after load: layout and paint of every cell.
            drawn = browser.call("Runtime.evaluate", {
                "expression": "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now()))))",
                "awaitPromise": True, "returnByValue": True}, session=True)["result"]["value"]
            loads.append(seconds)
            frames.append(drawn / 1000)
        print(f"{nodes} nodes x 40 benchmarks: page {os.path.getsize(page) / 1e6:.2f} MB; chromium: load event "
              f"{statistics.median(loads):.2f} s, first frame drawn {statistics.median(frames):.2f} s after navigation "
              f"(median of 5)")
finally:
    browser.close()
PY
for nodes in 100 1000; do
  echo
  echo "== strata fleet over $nodes nodes: the text report alone, and with --html"
  /usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/fleet-$nodes.json"
done
