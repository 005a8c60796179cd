#!/usr/bin/env bash
# Usage: validate_report.sh STRATA SCHEMA PLUGIN_DIR
# Runs `strata doctor --json` (with the fault-injection plugins, so every
# status and plugin state appears) and `strata env`, and validates both
# against the report schema.
set -euo pipefail
strata=$1 schema=$2 plugins=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
set +e
"$strata" doctor --json --no-builtin-plugins --plugin-path "$plugins" --timeout 1.5 >"$out/doctor.json"
status=$?
set -e
if [ "$status" -gt 1 ]; then echo "strata doctor exited $status" >&2; exit 1; fi
"$strata" env --no-builtin-plugins >"$out/env.json"
/usr/bin/python3 - "$schema" "$out/doctor.json" "$out/env.json" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
report = json.load(open(sys.argv[2]), parse_constant=lambda c: sys.exit(f"non-strict JSON constant {c}"))
validator.validate(report)
statuses = {c["status"] for c in report["checks"]}
states = {p["state"] for p in report["plugins"]}
for needed in ("crashed", "timeout", "error", "fail", "pass"):
    assert needed in statuses, f"no check with status {needed}: {sorted(statuses)}"
for needed in ("loaded", "crashed", "timeout", "error", "missing_dependency"):
    assert needed in states, f"no plugin in state {needed}: {sorted(states)}"
env = json.load(open(sys.argv[3]))
validator.evolve(schema={"$ref": "#/$defs/environment_document", **{k: schema[k] for k in ("$schema", "$defs")}}).validate(env)
print(f"report valid: {len(report['checks'])} checks, {len(report['plugins'])} plugins; env valid: {len(env['environment'])} facts")
PY
