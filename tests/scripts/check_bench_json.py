#!/usr/bin/env python3
"""Checks a `strata bench` results file from a GPU: strict JSON (no NaN or
Infinity), both modes, stream/triad against both bandwidth roofs, strata's
environment in the context, no benchmark that errored, every driver-facing
benchmark present (hot only), and NCCL's busbw as nccl-tests defines it for
the ranks it ran on (on one rank: 0 for all_reduce, all_gather,
reduce_scatter and alltoall; algbw for broadcast, reduce and sendrecv).

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
    driver = {b["name"].split("/mode:")[0] for b in document["benchmarks"]
              if b["name"].startswith("driver/") and not b["name"].startswith("driver/jit_installed/")}
    # Five copies between GPUs run where CUDA sees two or more.
    peers = {n for n in driver if n.startswith("driver/copy/peer_")}
    if len(driver - peers) != 27 or len(peers) not in (0, 5):
        problems.append(f"{len(driver - peers)} driver-facing benchmarks on one GPU (not 27) and {len(peers)} "
                        "between GPUs (not 0 or 5)")
    if any(b["name"].startswith("driver/") and "/mode:cold/" in b["name"] for b in document["benchmarks"]):
        problems.append("driver-facing benchmarks run hot only")
    # The JIT proof (--jit-installed): each fat binary loaded or refused with
    # the driver's error (listed above), and a total when any was handed over.
    proofs = {b["name"] for b in document["benchmarks"] if b["name"].startswith("driver/jit_installed/")}
    totals = {n for n in proofs if n.startswith("driver/jit_installed/total/")}
    if proofs and not totals:
        problems.append("JIT proof results without a total")
    for b in document["benchmarks"]:
        if b["name"] in proofs - totals and not b.get("error_occurred") and "jit_wall_ms" not in b:
            problems.append(f'{b["name"]}: no jit_wall_ms')
    if proofs:
        print(f"JIT proof: {len(proofs - totals)} installed fat binaries through the driver's JIT")
    factors = {"all_reduce": lambda n: 2 * (n - 1) / n, "all_gather": lambda n: (n - 1) / n,
               "reduce_scatter": lambda n: (n - 1) / n, "alltoall": lambda n: (n - 1) / n,
               "broadcast": lambda n: 1, "reduce": lambda n: 1, "sendrecv": lambda n: 1}
    for b in document["benchmarks"]:
        parts = b["name"].split("/")
        if len(parts) < 2 or parts[0] != "nccl" or b.get("error_occurred") or b.get("run_type") != "iteration":
            continue
        ranks, algbw, busbw = b.get("ranks"), b.get("algbw_bytes_per_second"), b.get("busbw_bytes_per_second")
        if not ranks or algbw is None or busbw is None or parts[1] not in factors:
            problems.append(f'{b["name"]}: no ranks, algbw or busbw counter')
            continue
        want = algbw * factors[parts[1]](int(ranks))
        if abs(busbw - want) > 1e-6 * max(1.0, want):
            problems.append(f'{b["name"]}: busbw {busbw} on {ranks} rank(s), nccl-tests defines {want}')
    for b in triad:
        print(f'{b["name"]}: {b["percent_of_peak_bandwidth"]:.1f}% of peak bandwidth, '
              f'{b.get("percent_of_copy_roof", float("nan")):.1f}% of the measured copy')
    if problems:
        print("FAILED:\n  " + "\n  ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
