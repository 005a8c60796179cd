#!/usr/bin/env python3
"""`--html FILE` of rollout, fleet, compare, bench and doctor, opened in a real
browser (Debian's chromium over the DevTools protocol) and checked by the
W3C's Nu HTML checker (vnu).

Inputs with known answers: rollout's synthetic node files with known shifts
(none, -2%, -8% on one benchmark, and eight paired nodes), a fleet with one
node 15% slower, Google Benchmark's own files for compare, `strata bench` and
`strata doctor` under the fault-injection driver; names are hostile (markup,
quotes, control characters). Each page must load with no console error and no
network request, hold no element a name smuggled in, pass vnu without an
error, and draw what the numbers say: every forest-plot row's interval ends
at the pixels the axis gives for the JSON's interval, the -8% shift at 0.92,
the same decision in text, JSON, Markdown and HTML. A screenshot per report
type goes to ARTIFACTS for a reviewer; the 1,000-node fleet page's size and
load time are printed (bench/html_reports.sh measures them properly).

usage: html_reports.py STRATA FAKE_DRIVER_DIR SOURCE_DIR VNU_JAR CHROMIUM ARTIFACTS
"""
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless_browser import Browser, problems  # noqa: E402

STRATA, FAKE_DIR, SOURCE, VNU, CHROMIUM, ARTIFACTS = sys.argv[1:7]
failures = []
HOSTILE_BENCHMARK = "evil/<script>alert('b')</script>&amp;\"\u0001\u200b"
HOSTILE_NODE = "n09<img src=x onerror=alert(1)>\"'"


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(args, env_extra=None):
    env = dict(os.environ)
    env.pop("SLURM_JOB_NODELIST", None)
    env.update(env_extra or {})
    return subprocess.run([STRATA] + args, capture_output=True, text=True, env=env, timeout=600)


def entries(name, values, rate=False):
    out = []
    for i, v in enumerate(values):
        e = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": len(values),
             "repetition_index": i, "threads": 1, "iterations": 100, "real_time": v, "cpu_time": v,
             "time_unit": "ns"}
        if rate:  # a rate per wall-clock second (manual time): rollout judges it, bigger is better
            e["bytes_per_second"] = 1e12 / v
        out.append(e)
    return out


def gb_file(node, series):
    return {"context": {"host_name": node, "date": "2026-12-03T00:00:00+00:00", "library_build_type": "release"},
            "benchmarks": [e for name, values in series for e in entries(name, values, name.endswith("/manual_time"))]}


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


# The page's pixels for a value of the log axis, from two of its ticks.
AXIS_JS = """
(svg) => {
  const ticks = [...svg.querySelectorAll('g.tick')].map(t => {
    const r = t.querySelector('line').getBoundingClientRect();
    return {v: Number(t.dataset.value), x: r.left + r.width / 2};
  });
  const a = ticks[0], b = ticks[ticks.length - 1];
  return {a, b};
}
"""

FOREST_JS = """
(() => {
  const svg = document.querySelector('svg.forest');
  if (!svg) return null;
  const axis = (%s)(svg);
  const rows = [...svg.querySelectorAll('g.row')].map(g => {
    const ci = g.querySelector('line.ci'), mark = g.querySelector('.mark');
    const r = ci ? ci.getBoundingClientRect() : null, m = mark ? mark.getBoundingClientRect() : null;
    return {name: g.dataset.name, verdict: g.querySelector('text.verdict').textContent,
            left: r && r.left, right: r && r.right, mark: m && (m.left + m.width / 2),
            points: g.querySelectorAll('circle.point').length};
  });
  const t = svg.querySelector('g.threshold-marker line').getBoundingClientRect();
  return {axis, rows, threshold: t.left + t.width / 2};
})()
""" % AXIS_JS


def pixel(axis, value):
    a, b = axis["a"], axis["b"]
    return a["x"] + (b["x"] - a["x"]) * (math.log(value) - math.log(a["v"])) / (math.log(b["v"]) - math.log(a["v"]))


def value_at(axis, x):
    a, b = axis["a"], axis["b"]
    return math.exp(math.log(a["v"]) + (x - a["x"]) * (math.log(b["v"]) - math.log(a["v"])) / (b["x"] - a["x"]))


def open_page(browser, path, label, hostile=()):
    """Loads a page; checks what every page must hold to. Returns the load time."""
    seconds, events = browser.load(path)
    for problem in problems(events, "file://" + os.path.abspath(path)):
        check(False, f"{label}: {problem}")
    smuggled = browser.evaluate("document.querySelectorAll('script,img,iframe,object,embed,link,base,form').length")
    check(smuggled == 0, f"{label}: {smuggled} element(s) that no strata page writes (a name was not escaped)")
    text = browser.evaluate("document.body.textContent")
    for name in hostile:
        # As text, verbatim but for its control character: shown as \u0001
        # where strata reads names as one line (benchmark names), else as
        # U+FFFD (the page's own escaping).
        shown = [name.replace("\u0001", "\\u0001"), name.replace("\u0001", "\ufffd")]
        check(any(s in text or s[:40] in text for s in shown), f"{label}: the name {name!r} is not shown as text")
    return seconds


def rollout_pages(work, browser):
    rng = random.Random(7)
    names = ["driver/memory/alloc_free/bytes=4096", "driver/copy/h2d/pinned/bytes=268435456/manual_time",
             "gemm/bf16/4096", "triad/1GiB", "copy/1GiB/manual_time", HOSTILE_BENCHMARK]
    base_series = [(n, [1000 * (1 + 0.004 * rng.gauss(0, 1)) for _ in range(20)]) for n in names]

    def shifted(loss_by_name, hostile):
        # A performance loss of x: the time grows by 1 / (1 - x).
        return [(n, [1000 * (1 + 0.004 * rng.gauss(0, 1)) / (1 - loss_by_name.get(n, 0)) for _ in values])
                for n, values in base_series if hostile or n != HOSTILE_BENCHMARK]

    base = write(f"{work}/rollout/base.json", gb_file("n1", base_series))
    base_clean = write(f"{work}/rollout/base_clean.json",
                       gb_file("n1", [(n, v) for n, v in base_series if n != HOSTILE_BENCHMARK]))
    # The -8% page, without the hostile name, is the screenshot a reader sees.
    cases = [("none", {}, "go", True), ("minus2", {n: 0.02 for n in names}, "go", True),
             ("minus8", {"triad/1GiB": 0.08}, "no-go", False)]
    for label, loss, want, hostile in cases:
        cand = write(f"{work}/rollout/cand_{label}.json", gb_file("n1", shifted(loss, hostile)))
        base = f"{work}/rollout/base.json" if hostile else base_clean
        html = f"{work}/rollout_{label}.html"
        as_json = run(["rollout", base, cand, "--json", "--html", html])
        doc = json.loads(as_json.stdout)
        text = run(["rollout", base, cand]).stdout
        markdown = run(["rollout", base, cand, "--markdown"]).stdout
        decisions = {"json": doc["decision"],
                     "text": re.search(r"^decision: (\S+)", text, re.M).group(1),
                     "markdown": re.search(r"^## Driver rollout: \*\*(\S+)\*\*", markdown, re.M).group(1)}
        open_page(browser, html, f"rollout {label}", [HOSTILE_BENCHMARK] if hostile else [])
        decisions["html"] = browser.evaluate("document.querySelector('p.decision strong').textContent")
        check(set(decisions.values()) == {want}, f"rollout {label}: decisions {decisions}, wanted {want}")
        plot = browser.evaluate(FOREST_JS)
        check(plot is not None and len(plot["rows"]) == len(doc["benchmarks"]),
              f"rollout {label}: one forest row per benchmark ({plot and len(plot['rows'])} rows, "
              f"{len(doc['benchmarks'])} benchmarks)")
        if not plot:
            continue
        by_name = {b["name"]: b for b in doc["benchmarks"]}
        for row in plot["rows"]:
            b = by_name.get(row["name"])
            check(b is not None, f"rollout {label}: a row for {row['name']!r}, which the JSON lacks")
            if b is None:
                continue
            check(row["verdict"] == b["decision"], f"rollout {label} {b['name']}: row says {row['verdict']}")
            perf = [r if b["bigger_is_better"] else 1 / r for r in (b["low"], b["high"])]
            want_left, want_right = pixel(plot["axis"], min(perf)), pixel(plot["axis"], max(perf))
            check(abs(row["left"] - want_left) < 1.0 and abs(row["right"] - want_right) < 1.0,
                  f"rollout {label} {b['name']}: interval drawn at [{row['left']:.1f}, {row['right']:.1f}] px, "
                  f"the axis puts it at [{want_left:.1f}, {want_right:.1f}]")
        check(abs(value_at(plot["axis"], plot["threshold"]) - 0.97) < 0.002,
              f"rollout {label}: the threshold line sits at {value_at(plot['axis'], plot['threshold']):.4f}, not 0.97")
        check(any(b["bigger_is_better"] for b in doc["benchmarks"]) and
              not all(b["bigger_is_better"] for b in doc["benchmarks"]),
              f"rollout {label}: rates and times both judged (the plot inverts times)")
        if label == "minus8":
            triad = [r for r in plot["rows"] if r["name"] == "triad/1GiB"][0]
            shown = value_at(plot["axis"], triad["mark"])
            check(abs(shown - 0.92) < 0.006, f"rollout minus8: triad's estimate drawn at {shown:.4f}, the shift is 0.92")
            check(triad["right"] < plot["threshold"], "rollout minus8: triad's interval lies left of the threshold")
            groups = browser.evaluate("[...document.querySelectorAll('svg.forest text.heading')].map(t => t.textContent)")
            check("driver-facing" in groups and "kernels and libraries" in groups,
                  f"rollout minus8: rows grouped as the text groups them: {groups}")
            browser.screenshot(f"{ARTIFACTS}/rollout.png")
        if label == "minus2":
            for row in plot["rows"]:
                shown = value_at(plot["axis"], row["mark"])
                check(abs(shown - 0.98) < 0.006, f"rollout minus2: {row['name']} drawn at {shown:.4f}, not 0.98")

    # Paired nodes: one dot per node under each row.
    for side, factor in (("base", 1.0), ("cand", 1.01)):
        for i in range(8):
            speed = 1 + 0.05 * rng.gauss(0, 1)
            write(f"{work}/paired/{side}/n{i}.json",
                  gb_file(f"n{i:02d}", [("allreduce", [1000 * speed * factor * (1 + 0.003 * rng.gauss(0, 1))
                                                       for _ in range(5)])]))
    html = f"{work}/rollout_paired.html"
    doc = json.loads(run(["rollout", f"{work}/paired/base", f"{work}/paired/cand", "--json", "--html", html]).stdout)
    open_page(browser, html, "rollout paired")
    plot = browser.evaluate(FOREST_JS)
    check(len(doc["benchmarks"][0]["node_ratios"]) == 8, f"paired: 8 node ratios in the JSON: {doc['benchmarks'][0]}")
    check(plot and plot["rows"][0]["points"] == 8, f"paired: 8 node dots under the row: {plot and plot['rows']}")


def fleet_pages(work, browser):
    rng = random.Random(3)
    nodes = [f"n{i:02d}" for i in range(1, 9)]
    for node in nodes + [HOSTILE_NODE]:
        slow = 1 / 0.85 if node == "n05" else 1.0
        series = [("gemm/bf16/8192", [1.4e6 * slow * (1 + rng.uniform(-0.003, 0.003)) for _ in range(5)]),
                  ("copy/d2d/1GiB", [2.5e5 * (1 + rng.uniform(-0.003, 0.003)) for _ in range(5)])]
        doc = gb_file(node, series)
        if node != HOSTILE_NODE:
            write(f"{work}/fleet/{node}.json", doc)
        write(f"{work}/fleet_hostile/{re.sub(r'[^a-z0-9]', '_', node)}.json", doc)
    html = f"{work}/fleet.html"
    result = run(["fleet", f"{work}/fleet", "--html", html])
    check(result.returncode == 1, f"fleet: exit {result.returncode} (n05 is an outlier)\n{result.stderr}")
    open_page(browser, html, "fleet")
    heat = browser.evaluate("""(() => {
      const rows = [...document.querySelectorAll('svg.heat g.node')];
      return {nodes: rows.map(r => r.dataset.node),
              outliers: rows.map(r => r.querySelectorAll('rect.cell.outlier').length),
              cells: document.querySelectorAll('svg.heat g.node rect.cell').length,
              first_problem: document.querySelector('table tbody tr td:nth-child(4)').textContent};
    })()""")
    check(sorted(heat["nodes"]) == sorted(nodes), f"fleet: one heat-map row per node: {heat['nodes']}")
    check(heat["nodes"][0] == "n05" and heat["outliers"][0] == 1 and sum(heat["outliers"]) == 1,
          f"fleet: the slow node first and its one outlier cell marked: {heat}")
    check(heat["cells"] == 2 * len(nodes), f"fleet: a cell per node and benchmark: {heat['cells']}")
    check(heat["first_problem"].startswith("n05 is slower"), f"fleet: the problem listed first: {heat}")
    browser.screenshot(f"{ARTIFACTS}/fleet.png")
    # A node named to inject markup: shown as text, its row there all the same.
    html = f"{work}/fleet_hostile.html"
    run(["fleet", f"{work}/fleet_hostile", "--html", html])
    open_page(browser, html, "fleet with a hostile node name", [HOSTILE_NODE])
    rows = browser.evaluate("[...document.querySelectorAll('svg.heat g.node')].map(r => r.dataset.node)")
    check(HOSTILE_NODE in rows, f"fleet: the hostile node has its row: {rows}")


def large_fleet(work, browser):
    """1,000 nodes x 12 benchmarks: the page's size and its load time."""
    rng = random.Random(1)
    names = [f"bench/{k}/size={2 ** k}" for k in range(12)]
    for i in range(1000):
        slow = 1.2 if i == 617 else 1.0
        series = [(n, [1e5 * slow * (1 + rng.uniform(-0.003, 0.003)) for _ in range(3)]) for n in names]
        write(f"{work}/large/n{i:04d}.json", gb_file(f"n{i:04d}", series))
    html = f"{work}/fleet_large.html"
    run(["fleet", f"{work}/large", "--html", html])
    size = os.path.getsize(html)
    check(size < 5 * 1024 * 1024, f"1,000-node fleet page is {size} bytes (5 MB at most)")
    seconds = open_page(browser, html, "fleet 1,000 nodes")
    first = browser.evaluate("document.querySelector('svg.heat g.node').dataset.node")
    check(first == "n0617", f"1,000-node fleet: the slow node first, got {first}")
    print(f"1,000-node fleet page: {size / 1e6:.2f} MB, loaded in {seconds:.2f} s")
    return html


def compare_pages(work, browser):
    base, new = f"{SOURCE}/tests/bench/google_benchmark_base.json", f"{SOURCE}/tests/bench/google_benchmark_new.json"
    html = f"{work}/compare.html"
    doc = json.loads(run(["compare", base, new, "--json", "--html", html]).stdout)
    open_page(browser, html, "compare")
    strip = browser.evaluate("""[...document.querySelectorAll('svg.strip g.row')].map(g => ({
        name: g.dataset.name, base: g.querySelectorAll('circle.point.base').length,
        next: g.querySelectorAll('circle.point.new').length,
        median: (g.querySelector('g.median-mark.new') || {dataset: {}}).dataset.value}))""")
    check([s["name"] for s in strip] == [b["name"] for b in doc["benchmarks"]],
          f"compare: one strip row per benchmark in order: {[s['name'] for s in strip]}")
    for s, b in zip(strip, doc["benchmarks"]):
        check(s["base"] == b["base_repetitions"] and s["next"] == b["new_repetitions"],
              f"compare {b['name']}: {s['base']}+{s['next']} points for {b['base_repetitions']}+{b['new_repetitions']} repetitions")
        if b["base_ns"] > 0 and b["new_ns"] > 0:
            check(abs(float(s["median"]) - b["ratio"]) < 1e-6 * b["ratio"], f"compare {b['name']}: NEW median at {s['median']}, ratio {b['ratio']}")
    browser.screenshot(f"{ARTIFACTS}/compare.png")


def fake_env(work):
    return {"LD_LIBRARY_PATH": FAKE_DIR, "HOME": work,
            "STRATA_FAKE_CUDA": "kernels_run=1;name=NVIDIA H100 80GB HBM3;gbps.h2d=20;gbps.d2h=22;gbps.d2d=50;kernel_us=3"}


def bench_pages(work, browser):
    html, out = f"{work}/bench.html", f"{work}/bench.json"
    result = run(["bench", "--filter", "^driver/(memory/alloc_free|copy/h2d)", "--repetitions", "3", "--timeout", "600",
                  "--out", out, "--html", html], fake_env(work))
    check(os.path.exists(html), f"bench: no page\n{result.stdout}\n{result.stderr[-2000:]}")
    if not os.path.exists(html):
        return
    names = sorted({e["run_name"] for e in json.load(open(out))["benchmarks"] if e.get("run_type") == "iteration"})
    open_page(browser, html, "bench")
    rows = browser.evaluate("[...document.querySelectorAll('svg.strip g.row')].map(g => [g.dataset.name, g.querySelectorAll('circle.point').length])")
    check(len(rows) == len(names) and all(n == 3 for _, n in rows), f"bench: a row of 3 repetitions per benchmark: {rows} for {names}")
    browser.screenshot(f"{ARTIFACTS}/bench.png")
    # No GPU, nothing measured: the page still says so, and why.
    html = f"{work}/bench_nothing.html"
    result = run(["bench", "--filter", "^driver/memory/alloc_free", "--out", f"{work}/nothing.json", "--html", html])
    check(result.returncode == 1 and os.path.exists(html), f"bench without a GPU: exit {result.returncode}, a page")
    if os.path.exists(html):
        open_page(browser, html, "bench, nothing measured")
        text = browser.evaluate("document.body.textContent")
        check("nothing measured" in text and "no usable GPU" in text, f"bench without a GPU: the page says why: {text[:500]}")


def doctor_pages(work, browser):
    html = f"{work}/doctor.html"
    env = fake_env(work)
    result = run(["doctor", "--no-selftest", "--html", html], env)
    report = json.loads(run(["doctor", "--no-selftest", "--json"], env).stdout)
    open_page(browser, html, "doctor")
    shown = browser.evaluate("document.querySelectorAll('div.check').length")
    check(shown == len(report["checks"]), f"doctor: {shown} checks shown of {len(report['checks'])}")
    failing = [c for c in report["checks"] if c["status"] not in ("pass", "skip", "warn") and c.get("evidence")]
    opened = browser.evaluate("document.querySelectorAll('div.check details[open]').length")
    check(opened >= len(failing), f"doctor: {opened} checks open, {len(failing)} failing ones with evidence")
    check(result.returncode == report.get("exit_code", result.returncode), "doctor --html keeps the exit status")
    browser.screenshot(f"{ARTIFACTS}/doctor.png")


def refusals(work):
    """--html at a path it must not write: refused before any work, one line, exit 2."""
    os.symlink("/etc/passwd-strata-test", f"{work}/link.html")
    base, cand = f"{work}/rollout/base.json", f"{work}/rollout/cand_none.json"
    for target in (f"{work}/link.html", work):
        result = run(["rollout", base, cand, "--html", target])
        check(result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1,
              f"--html {target}: exit {result.returncode}, {result.stderr!r}")
    check(not os.path.exists("/etc/passwd-strata-test"), "--html wrote through a symlink")


def validate(pages):
    result = subprocess.run(["java", "-jar", VNU, "--errors-only", "--format", "gnu"] + pages,
                            capture_output=True, text=True, timeout=600)
    check(result.returncode == 0, "vnu found errors:\n" + (result.stdout + result.stderr)[:6000])


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="strata-html-")
    browser = Browser(CHROMIUM)
    try:
        rollout_pages(work, browser)
        fleet_pages(work, browser)
        compare_pages(work, browser)
        bench_pages(work, browser)
        doctor_pages(work, browser)
        large = large_fleet(work, browser)
        refusals(work)
        validate(sorted(os.path.join(work, f) for f in os.listdir(work) if f.endswith(".html") and f != "link.html"
                        and os.path.join(work, f) != large) + [large])
    finally:
        browser.close()
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print(f"html reports: every page loads offline, validates, and draws its numbers; screenshots in {ARTIFACTS}")


main()
