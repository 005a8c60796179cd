"""The synthetic fleet the bench/ scripts measure on: 100 and 1,000 node
records, each a Google Benchmark file of 40 benchmarks x 10 repetitions,
three nodes in four H200 and one in four H100 (30% slower: its own group of
like nodes), 1% of the nodes 15% slower than their group.

Usage: python3 bench/fleet_records.py OUT   (writes OUT/100 and OUT/1000)
"""
import json
import os
import random
import sys

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
