#!/usr/bin/env python3
"""strata's --prometheus files as the real consumers read them.

`strata doctor`, `strata record` and `strata fleet` write node_exporter
textfile metrics; every file must pass `promtool check metrics`, and a real
`prometheus-node-exporter` on a loopback port, reading them with its textfile
collector, must serve the strata_ metrics with node_textfile_scrape_error 0.
A file with sample timestamps is served as a scrape error: the negative
control that shows the scrape would catch one.

usage: prometheus_textfile.py STRATA FAKE_DRIVER_DIR   (exit 77: skipped)
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

STRATA, FAKE_DIR = sys.argv[1], sys.argv[2]
EXPORTER = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
PROMTOOL = shutil.which("promtool")
if not EXPORTER or not PROMTOOL:
    print("SKIP: prometheus-node-exporter and promtool are needed (scripts/setup --test installs them)")
    sys.exit(77)
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def strata(args):
    env = dict(os.environ, LD_LIBRARY_PATH=FAKE_DIR, STRATA_FAKE_CUDA="name=NVIDIA H200",
               SLURM_JOB_ID="7", SLURMD_NODENAME="n1")
    env.pop("SLURM_JOB_NODELIST", None)
    return subprocess.run([STRATA] + args, capture_output=True, text=True, env=env, timeout=300)


def scrape(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        return response.read().decode()


work = tempfile.mkdtemp(prefix="strata-prom-")
exporter = None
try:
    textfiles = f"{work}/textfile"
    os.makedirs(textfiles)
    strata(["doctor", "--prometheus", f"{textfiles}/doctor.prom"])
    strata(["record", "--no-benchmarks", "--out", f"{work}/n1.json", "--prometheus", f"{textfiles}/record.prom"])
    strata(["fleet", f"{work}/n1.json", "--expect", "n[1-2]", "--prometheus", f"{textfiles}/fleet.prom"])
    for name in ("doctor", "record", "fleet"):
        path = f"{textfiles}/{name}.prom"
        check(os.path.exists(path), f"{name} --prometheus wrote {path}")
        if not os.path.exists(path):
            continue
        checked = subprocess.run([PROMTOOL, "check", "metrics"], stdin=open(path), capture_output=True, text=True)
        check(checked.returncode == 0, f"promtool check metrics {name}.prom: {checked.stdout}{checked.stderr}")
    check(sorted(os.listdir(textfiles)) == ["doctor.prom", "fleet.prom", "record.prom"],
          f"no temporary file is left behind: {os.listdir(textfiles)}")

    # A refused path: one line, exit 2, nothing run.
    result = strata(["doctor", "--prometheus", "/dev/null"])
    check(result.returncode == 2 and "not a regular file" in result.stderr, f"/dev/null: {result.stderr}")
    result = strata(["doctor", "--prometheus", f"{work}/metrics.txt"])
    check("reads only *.prom" in result.stderr, f"a name node_exporter ignores is noted: {result.stderr}")

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exporter = subprocess.Popen([EXPORTER, f"--web.listen-address=127.0.0.1:{port}", "--collector.disable-defaults",
                                 "--collector.textfile", f"--collector.textfile.directory={textfiles}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    text = ""
    for _ in range(100):
        try:
            text = scrape(port)
            break
        except OSError:
            time.sleep(0.1)
    check("node_textfile_scrape_error 0" in text, f"node_exporter reads every file: {text[-2000:]}")
    for needle in ('strata_info{', 'strata_check_status{check="driver.libcuda"', 'strata_healthy{command="doctor"}',
                   'strata_healthy{command="record"}', 'strata_benchmarks_measured 0',
                   'strata_fleet_node_attention{node="n2"} 1', 'strata_fleet_nodes{state="missing"} 1'):
        check(needle in text, f"node_exporter serves {needle}")
    for name in ("doctor", "record", "fleet"):
        check(f'node_textfile_mtime_seconds{{file="{textfiles}/{name}.prom"}}' in text
              or f'file="{name}.prom"' in text, f"node_exporter lists {name}.prom")

    # The negative control: a sample timestamp makes node_exporter refuse the file.
    with open(f"{textfiles}/stamped.prom", "w") as f:
        f.write("# HELP strata_stamped x\n# TYPE strata_stamped gauge\nstrata_stamped 1 1700000000000\n")
    check("node_textfile_scrape_error 1" in scrape(port), "a timestamped file is a scrape error")
finally:
    if exporter:
        exporter.terminate()
        exporter.wait(timeout=10)
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("prometheus textfile: all checks passed")
