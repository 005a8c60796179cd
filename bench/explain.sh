#!/usr/bin/env bash
# What `strata explain` costs: every real report strata ships (the 45 shared
# reports and every public-tracker set) classified in one `--evaluate` run;
# one pasted log just under 8 MiB (read whole; a longer one keeps its first
# 2 MiB and last 6 MiB) of mixed CUDA lines, next to what a person would
# otherwise do to find the known error lines in that log: grep
# for a list of the stack's error words (no classification, no meaning); and
# one 50 MiB line with no line break, every report's text end to end, so every
# finder meets its words again and again (a crafted worst case: its cost must
# grow with its length, never more); and 1 MB of one word a regex starts from.
# Several runs each (hyperfine), medians, ratios, all in one run.
# Usage: bench/explain.sh [BUILD_DIR]   (default: build)
source "$(dirname "$0")/preamble.sh" "$@"
reports=("$root"/tests/explain/*.jsonl)  # every set strata ships, as it grows
# A log just under 8 MiB (read whole): every report's text, repeated, with noise
# lines between them, so most lines match nothing (as in a real log).
/usr/bin/python3 - "$out/log.txt" "${reports[@]}" <<'PY'
import json, sys
texts = [json.loads(l)["error_text"] for path in sys.argv[2:] for l in open(path)]
noise = "2026-12-03 10:00:00 INFO step 1200 loss=0.4311 lr=3.0e-4 tokens/s=181234 grad_norm=0.98\n"
with open(sys.argv[1], "w") as f:
    size, i = 0, 0
    while size < 8_000_000:
        chunk = noise * 40 + texts[i % len(texts)] + "\n"
        f.write(chunk); size += len(chunk); i += 1
PY
# 50 MiB, one line: the reports' texts, their own line breaks made spaces.
/usr/bin/python3 - "$out/line.txt" "${reports[@]}" <<'PY'
import json, sys
texts = [json.loads(l)["error_text"].replace("\n", " ").replace("\r", " ") for path in sys.argv[2:] for l in open(path)]
line = " ".join(texts)
with open(sys.argv[1], "w") as f:
    size = 0
    while size < 50 * 2**20:
        f.write(line + " "); size += len(line) + 1
PY
pattern='cuda|nccl|cudnn|cublas|nvml|xid|nvrm|ptxas|nvrtc|cannot open shared object|undefined symbol'
hyperfine --warmup 1 --runs 10 --export-json "$out/reports.json" \
  "$strata explain --quiet --evaluate ${reports[*]}" >/dev/null
hyperfine --warmup 1 --runs 5 --export-json "$out/log.json" \
  "$strata explain --no-probe --json < $out/log.txt" \
  "grep -c -i -E '$pattern' $out/log.txt" >/dev/null
hyperfine --warmup 1 --runs 5 -i --export-json "$out/line.json" \
  "$strata explain --no-probe --json < $out/line.txt" \
  "grep -c -i -E '$pattern' $out/line.txt" >/dev/null
# 1 MB of one word a signal's regex starts from, again and again (#37: the
# backtracking engine took 42 s on it).
/usr/bin/python3 -c 'print("vgpu " * 200000)' > "$out/vgpu.txt"
hyperfine --warmup 1 --runs 5 -i --export-json "$out/vgpu.json" \
  "$strata explain --no-probe --json < $out/vgpu.txt" >/dev/null
echo "== every shipped report ($(cat "${reports[@]}" | wc -l) reports) in one --evaluate run"
/usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/reports.json" 1000
echo
echo "== one pasted 8 MiB log ($(wc -l < "$out/log.txt") lines): strata explain vs grep for the error words"
/usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/log.json"
echo
echo "== one 50 MiB line (its first 2 MiB and last 6 MiB read): strata explain vs grep for the error words"
/usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/line.json"
echo
echo "== 1 MB of 'vgpu vgpu ...' on one line (a crafted line for a backtracking engine)"
/usr/bin/python3 "$root/bench/hyperfine_summary.py" "$out/vgpu.json"
