#!/usr/bin/env python3
"""Checks a `strata bench` results file from a GPU: strict JSON (no NaN or
Infinity), both modes, stream/triad against both bandwidth roofs, strata's
environment in the context, and no benchmark that errored.

usage: check_bench_json.py BENCH.json     (exit 1 with the problems listed)
Used by tests/scripts/gpu_bench.sh (ctest, label gpu) and scripts/gpu-check.
"""
import json
import sys


def reject(token):
    raise ValueError(f"non-finite number {token} in strict JSON")


def main(path):
    document = json.load(open(path), parse_constant=reject)
    names = [b["name"] for b in document["benchmarks"] if b.get("run_type") == "iteration"]
    problems = []
    if not any("/mode:cold/" in n for n in names):
        problems.append("no cold results")
    if not any("/mode:hot/" in n for n in names):
        problems.append("no hot results")
    triad = [b for b in document["benchmarks"] if "stream/triad" in b["name"] and "percent_of_peak_bandwidth" in b]
    if not triad:
        problems.append("no stream/triad result with percent_of_peak_bandwidth")
    if triad and not all("percent_of_copy_roof" in b for b in triad):
        problems.append("stream/triad without percent_of_copy_roof")
    if "environment" not in document["context"].get("strata", {}):
        problems.append("no strata environment in context")
    for b in document["benchmarks"]:
        if b.get("error_occurred"):
            problems.append(f'{b["name"]}: {b.get("error_message")}')
    for b in triad:
        print(f'{b["name"]}: {b["percent_of_peak_bandwidth"]:.1f}% of peak bandwidth, '
              f'{b.get("percent_of_copy_roof", float("nan")):.1f}% of the measured copy')
    if problems:
        print("FAILED:\n  " + "\n  ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
