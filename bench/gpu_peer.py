#!/usr/bin/env python3
"""The peer run of scripts/gpu-check: what users would otherwise run, on the
same GPU, for the same work as strata's benchmarks — PyTorch's host<->device
copies of 64 MiB from pinned and pageable memory, its device copy and triad
over 2^26 floats, its matmul for the GEMM shapes and types of the cublas
plugin, and an all-reduce through NCCL where there are two GPUs or more — then
each strata figure as a ratio against it.

  gpu_peer.py run --out peer.json          (needs torch with CUDA)
  gpu_peer.py compare BENCH.json peer.json (strata bench's results against it)

Timing: CUDA events around a batch of launches after a warm-up, the median of
the repetitions, as strata's hot mode measures. Bytes follow STREAM's
convention (copy reads and writes each element once: 2 x 4 bytes; triad 3 x 4).

Like for like: the same data strata's plugins use (input_pattern in
plugins/common/cuda_helpers.h: ((i * 7 + seed * 13) % 101) / 50 - 1, since a
Hopper GEMM's speed depends on its data), the same types (FP32 in and out
without TF32; FP16/BF16 in and out, FP32 accumulation) and the same layout
(strata's column-major C = A B is, read row-major, C^T = B^T A^T, which is
the cuBLAS call torch.matmul makes for row-major operands).
"""
import argparse
import json
import statistics
import sys


def measure(torch, work, repetitions=10, batch=20):
    for _ in range(3):
        work()
    torch.cuda.synchronize()
    times = []
    for _ in range(repetitions):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(batch):
            work()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3 / batch)
    return statistics.median(times)


def pattern(torch, n, seed, device):
    """strata's input_pattern: values in [-1, 1) that differ element to element."""
    i = torch.arange(n, dtype=torch.int64, device=device)
    return ((i * 7 + seed * 13) % 101).to(torch.float32) / 50.0 - 1.0


def run(out_path):
    import torch
    if not torch.cuda.is_available():
        print("gpu_peer: torch sees no GPU:", torch.version.cuda, file=sys.stderr)
        return 1
    torch.backends.cuda.matmul.allow_tf32 = False  # sgemm means FP32, as cublasSgemm
    device = torch.device("cuda:0")
    results = {"torch": torch.__version__, "cuda": torch.version.cuda,
               "cudnn": torch.backends.cudnn.version(), "gpu": torch.cuda.get_device_name(0), "figures": {}}
    figures = results["figures"]
    n = 1 << 26
    a = torch.empty(n, dtype=torch.float32, device=device)
    b = pattern(torch, n, 1, device)
    c = pattern(torch, n, 2, device)
    seconds = measure(torch, lambda: a.copy_(b))
    figures["stream/copy"] = {"bytes_per_second": 2 * 4 * n / seconds, "seconds": seconds}
    seconds = measure(torch, lambda: torch.add(b, c, alpha=3.0, out=a))
    figures["stream/triad"] = {"bytes_per_second": 3 * 4 * n / seconds, "seconds": seconds}
    del a, b, c
    # Host<->device copies of 64 MiB, as the driver plugin's copy benchmarks
    # (nvbandwidth's counting: the bytes of one copy), from pinned and from
    # pageable host memory; non_blocking so a pinned copy is asynchronous.
    copy_bytes = 64 << 20
    on_device = torch.empty(copy_bytes // 4, dtype=torch.float32, device=device)
    for kind, pinned in (("pinned", True), ("pageable", False)):
        host = torch.ones(copy_bytes // 4, dtype=torch.float32, pin_memory=pinned)
        seconds = measure(torch, lambda: on_device.copy_(host, non_blocking=pinned))
        figures[f"copy/h2d/{kind}"] = {"bytes_per_second": copy_bytes / seconds, "seconds": seconds}
        seconds = measure(torch, lambda: host.copy_(on_device, non_blocking=pinned))
        figures[f"copy/d2h/{kind}"] = {"bytes_per_second": copy_bytes / seconds, "seconds": seconds}
        del host
    del on_device
    for dtype, name, sizes in ((torch.float32, "f32", (1024, 4096)), (torch.float16, "f16", (4096, 8192)),
                               (torch.bfloat16, "bf16", (4096, 8192))):
        for size in sizes:
            # strata's A (m x k, column-major) is A^T row-major, its B likewise.
            a_t = pattern(torch, size * size, 1, device).to(dtype).view(size, size)
            b_t = pattern(torch, size * size, 2, device).to(dtype).view(size, size)
            c_t = torch.empty(size, size, dtype=dtype, device=device)
            seconds = measure(torch, lambda: torch.matmul(b_t, a_t, out=c_t), batch=5 if size > 4096 else 10)
            figures[f"gemm/{name}/{size}"] = {"flops_per_second": 2 * size ** 3 / seconds, "seconds": seconds}
            del a_t, b_t, c_t
    if torch.cuda.device_count() >= 2 and torch.distributed.is_nccl_available():
        results["all_reduce"] = "needs one process per GPU (torchrun): not run here"
    else:
        results["all_reduce"] = "one GPU: an all-reduce moves no data between GPUs (busbw 0), not run"
    with open(out_path, "w") as f:
        json.dump(results, f, indent=2)
    for key, value in figures.items():
        rate = value.get("bytes_per_second", 0) / 1e9 or value.get("flops_per_second", 0) / 1e12
        unit = "GB/s" if "bytes_per_second" in value else "TFLOP/s"
        print(f"torch {key}: {rate:.1f} {unit}")
    return 0


# strata benchmark name (as the runner writes it, hot mode) -> peer figure.
PAIRS = [
    (("driver/copy/h2d/", "host=pinned", "mode:hot"), "copy/h2d/pinned", "bytes_per_second"),
    (("driver/copy/h2d/", "host=pageable", "mode:hot"), "copy/h2d/pageable", "bytes_per_second"),
    (("driver/copy/d2h/", "host=pinned", "mode:hot"), "copy/d2h/pinned", "bytes_per_second"),
    (("driver/copy/d2h/", "host=pageable", "mode:hot"), "copy/d2h/pageable", "bytes_per_second"),
    (("cudart/stream/copy/", "mode:hot"), "stream/copy", "bytes_per_second"),
    (("cudart/stream/triad/", "mode:hot"), "stream/triad", "bytes_per_second"),
    (("cublas/sgemm/m=1024,", "mode:hot"), "gemm/f32/1024", "flops_per_second"),
    (("cublas/sgemm/m=4096,", "mode:hot"), "gemm/f32/4096", "flops_per_second"),
    (("cublaslt/gemm/m=4096,", "dtype=f16", "mode:hot"), "gemm/f16/4096", "flops_per_second"),
    (("cublaslt/gemm/m=8192,", "dtype=f16", "mode:hot"), "gemm/f16/8192", "flops_per_second"),
    (("cublaslt/gemm/m=4096,", "dtype=bf16", "mode:hot"), "gemm/bf16/4096", "flops_per_second"),
    (("cublaslt/gemm/m=8192,", "dtype=bf16", "mode:hot"), "gemm/bf16/8192", "flops_per_second"),
]


def compare(bench_path, peer_path):
    bench = json.load(open(bench_path))
    peer = json.load(open(peer_path))
    rows = {}
    for entry in bench["benchmarks"]:
        if entry.get("run_type", "iteration") != "iteration" or entry.get("error_occurred"):
            continue
        rows.setdefault(entry.get("run_name", entry["name"]), []).append(entry)
    print(f"strata against {peer.get('gpu')} / torch {peer.get('torch')} (CUDA {peer.get('cuda')}), hot mode medians:")
    context = bench.get("context", {})
    print("% of peak: of the theoretical HBM bandwidth "
          f"({context.get('strata_peak_bandwidth_gbps', '?')} GB/s); % of copy: of the device-to-device copy "
          f"the runner measured ({context.get('strata_copy_roof_gbps', '?')} GB/s)")
    print(f"{'benchmark':<58} {'strata':>12} {'torch':>12} {'strata/torch':>13} {'% of peak':>10} {'% of copy':>10}")
    for parts, key, counter in PAIRS:
        names = [n for n in rows if all(p in n for p in parts)]
        theirs = peer.get("figures", {}).get(key, {}).get(counter)
        for name in names:
            values = [e[counter] for e in rows[name] if isinstance(e.get(counter), (int, float))]
            peaks = [e["percent_of_peak_bandwidth"] for e in rows[name] if "percent_of_peak_bandwidth" in e]
            roofs = [e["percent_of_copy_roof"] for e in rows[name] if "percent_of_copy_roof" in e]
            if not values or not theirs:
                continue
            ours = statistics.median(values)
            scale, unit = (1e9, "GB/s") if counter == "bytes_per_second" else (1e12, "TFLOP/s")
            peak = f"{statistics.median(peaks):.1f}" if peaks else "-"
            roof = f"{statistics.median(roofs):.1f}" if roofs else "-"
            print(f"{name:<58} {ours / scale:>7.1f} {unit:<4} {theirs / scale:>7.1f} {unit:<4} "
                  f"{ours / theirs:>13.3f} {peak:>10} {roof:>10}")
    print(f"all-reduce: {peer.get('all_reduce')}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", required=True)
    c = sub.add_parser("compare")
    c.add_argument("bench")
    c.add_argument("peer")
    args = parser.parse_args()
    return run(args.out) if args.command == "run" else compare(args.bench, args.peer)


if __name__ == "__main__":
    sys.exit(main())
