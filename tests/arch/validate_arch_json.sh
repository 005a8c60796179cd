#!/usr/bin/env bash
# Usage: validate_arch_json.sh STRATA SCHEMA FIXTURE_DIR
# `strata arch --json --details` over every fixture (plus an unreadable file,
# with a driver and two targets, so every branch of the document appears)
# validates against docs/arch.schema.json.
set -euo pipefail
strata=$1 schema=$2 fixtures=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '\177ELF\002\001\001garbage' >"$scratch/corrupt.so"
set +e
"$strata" arch --json --details --sm 9.0 --sm 12.1 --driver 580.65.06 "$fixtures" "$scratch/corrupt.so" >"$scratch/arch.json"
status=$?
set -e
[ "$status" -eq 2 ] || { echo "expected exit 2 (one unreadable file), got $status" >&2; exit 1; }
/usr/bin/python3 - "$schema" "$scratch/arch.json" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]), parse_constant=lambda c: sys.exit(f"non-strict JSON constant {c}"))
jsonschema.Draft202012Validator(schema).validate(doc)
files = doc["files"]
images = [i for f in files for i in f.get("images", [])]
assert any("error" in f for f in files), "the unreadable file is missing"
assert {i["kind"] for i in images} >= {"sass", "ptx"}
assert {i["compression"] for i in images} == {"none", "lz4", "zstd"}
assert any("toolkit" in i for i in images) and any("ptx_target" in i for i in images)
verdicts = {v["verdict"] for f in files for v in f.get("verdicts", [])}
assert verdicts >= {"native", "jit", "none"}, verdicts
print(f"arch JSON valid: {len(files)} files, {len(images)} images, verdicts {sorted(verdicts)}")
PY
