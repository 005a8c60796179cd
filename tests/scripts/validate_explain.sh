#!/usr/bin/env bash
# Usage: validate_explain.sh STRATA SCHEMA REPORTS.jsonl
# Validates real `strata explain --json` documents against the schema: every
# report's text of REPORTS (recognised ones), an Xid log, a status code, a
# probe of this machine, and text that is not recognised (exit 1).
set -euo pipefail
strata=$1 schema=$2 reports=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 - "$reports" "$out" <<'PY'
import json, sys
for i, line in enumerate(open(sys.argv[1])):
    open(f"{sys.argv[2]}/report-{i}.txt", "w").write(json.loads(line)["error_text"])
PY
for text in "$out"/report-*.txt; do
  "$strata" explain --json --no-probe < "$text" > "${text%.txt}.json"
done
printf 'NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.\n' | "$strata" explain --json --no-probe > "$out/xid.json"
"$strata" explain --json "CUDA driver version is insufficient for CUDA runtime version" > "$out/probed.json"
# NCCL out of shared memory, explained inside a container whose /dev/shm is
# a real 64 MB tmpfs (Docker's default), mounted in a private mount namespace.
nccl_log='misc/shmutils.cc:60 NCCL WARN Call to posix_fallocate failed : No space left on device
RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)'
if unshare --mount true 2>/dev/null; then
  printf '%s\n' "$nccl_log" | unshare --mount sh -c \
    'mount -t tmpfs -o size=64m shm /dev/shm && container=docker exec "$1" explain --json' sh "$strata" \
    > "$out/nccl-shm.json"
  /usr/bin/python3 - "$out/nccl-shm.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["decided_by"]["id"] == "nccl.shared_memory_call", doc["decided_by"]
causes = {c["check"]: c for c in doc["causes"]}
shm = causes["container.shared_memory"]
assert shm["state"] == "HOLDS" and "64 MiB" in shm["evidence"], shm
PY
else
  echo "SKIP: unshare --mount is not allowed here; the 64 MB /dev/shm probe was not run" >&2
fi
# The answer depends on what the text and the flags say, never on whether
# strata itself runs in a container (the README's examples, both ways).
for text in "libcuda.so.1: cannot open shared object file: No such file or directory" \
            "RuntimeError: CUDA error: no kernel image is available for execution on the device"; do
  here=$("$strata" explain --json "$text" | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["failure_class"], d["confidence"])')
  boxed=$(container=docker "$strata" explain --json "$text" 2>/dev/null | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["failure_class"], d["confidence"])')
  [ "$here" = "$boxed" ] || { echo "'$text' reads '$here' on a host but '$boxed' in a container" >&2; exit 1; }
done
# --record: the causes are checked on the machine the record describes.
"$strata" doctor --json > "$out/machine.record" 2>/dev/null || true
"$strata" explain --json --record "$out/machine.record" "libcuda.so.1: cannot open shared object file" > "$out/recorded.json"
# --cuda with a record that holds no driver says it tested nothing.
printf '{"checks":[{"id":"host.os","status":"pass","summary":"Debian"}]}' > "$out/no-driver.record"
"$strata" explain --record "$out/no-driver.record" --cuda 12.4 "CUDA driver version is insufficient" \
  >/dev/null 2>"$out/no-driver.err"
grep -q "was not tested: .*no-driver.record holds no driver version" "$out/no-driver.err" ||
  { echo "--cuda with a record without a driver did not say so:"; cat "$out/no-driver.err"; exit 1; } >&2
# A record is a file a user wrote: each hostile one is one line on stderr and
# exit 2, never a crash, a hang or a read of something that is not a file.
hostile=$out/hostile
mkdir -p "$hostile"
/usr/bin/python3 -c 'print("[" * 100000 + "]" * 100000)' > "$hostile/deep.record"
printf '{"checks":[{"id":' > "$hostile/truncated.record"
printf '{"checks":"all of them"}' > "$hostile/not-checks.record"
head -c 70000000 /dev/zero | tr '\0' ' ' > "$hostile/huge.record"
mkfifo "$hostile/fifo.record"
ln -s /dev/zero "$hostile/zero.record"
mkdir "$hostile/dir.record"
for record in deep truncated not-checks huge fifo zero dir; do
  set +e
  timeout 20 "$strata" explain --no-probe --record "$hostile/$record.record" "libcuda.so.1: cannot open shared object file" \
    >"$hostile/$record.out" 2>"$hostile/$record.err"
  status=$?
  set -e
  [ "$status" -eq 2 ] || { echo "--record $record exited $status, not 2"; cat "$hostile/$record.err"; exit 1; } >&2
  [ "$(wc -l < "$hostile/$record.err")" -eq 1 ] ||
    { echo "--record $record: not one line on stderr:"; cat "$hostile/$record.err"; exit 1; } >&2
done
rm -f "$hostile/fifo.record"
set +e
"$strata" explain --json --no-probe "all is well" > "$out/unrecognised.json"
status=$?
set -e
[ "$status" -eq 1 ] || { echo "unrecognised text exited $status, not 1" >&2; exit 1; }
/usr/bin/python3 - "$schema" "$out" "$reports" <<'PY'
import glob, json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
documents = sorted(glob.glob(sys.argv[2] + "/*.json"))
for path in documents:
    doc = json.load(open(path), parse_constant=lambda c: sys.exit(f"non-strict JSON constant {c}"))
    validator.validate(doc)
assert json.load(open(sys.argv[2] + "/xid.json"))["xids"][0]["points_at"] == "hardware"
assert json.load(open(sys.argv[2] + "/unrecognised.json"))["recognised"] is False
assert json.load(open(sys.argv[2] + "/probed.json"))["causes_checked"] is True
recorded = json.load(open(sys.argv[2] + "/recorded.json"))
assert recorded["context"]["causes_checked_on"].endswith("machine.record"), recorded["context"]
# Every similar report is a real, shipped public report.
import os
shipped = set()
for path in glob.glob(os.path.join(os.path.dirname(os.path.abspath(sys.argv[3])), "*.jsonl")):
    shipped |= {json.loads(l)["source"] for l in open(path) if l.strip()}
for path in documents:
    doc = json.load(open(path))
    for similar in doc["similar_reports"]:
        assert similar["source"] in shipped, similar
    if not doc["answered"] and doc["recognised"]:
        assert len(doc["candidates"]) >= 2 and doc["failure_class"] is None, path
print(f"{len(documents)} explain documents valid")
PY
