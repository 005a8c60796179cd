#!/usr/bin/env python3
"""Every output of strata, read by the clients that consume it.

- JSON: each command's document against its schema in docs/ (jsonschema):
  doctor (with the fault-injection plugins, so every status and plugin state
  appears), env, frameworks, plugins, arch, explain, compare, and the
  Google Benchmark format of bench --out (files Google Benchmark writes).
- JUnit: doctor --junit against Jenkins' junit-10.xsd with xmllint.
- Markdown: every table row of doctor --markdown and compare --markdown has
  its header's columns (a '|' in a name must not add one).

Usage: validate_outputs.py STRATA DOCS_DIR TEST_PLUGIN_DIR ARCH_FIXTURES
                           JUNIT_XSD BENCH_FILE...
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile

import jsonschema

strata, docs, plugins, arch_fixtures, junit_xsd = sys.argv[1:6]
bench_files = sys.argv[6:]
docs = pathlib.Path(docs)
failures = []


def run(*args, expect=(0,)):
    result = subprocess.run([strata, *args], capture_output=True, text=True, timeout=300)
    if result.returncode not in expect:
        sys.exit(f"strata {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def strict_json(text, what):
    def refuse(constant):
        raise ValueError(f"{what}: non-strict JSON constant {constant}")
    return json.loads(text, parse_constant=refuse)


schemas = {p.name: json.loads(p.read_text()) for p in docs.glob("*.schema.json")}
for name, schema in schemas.items():
    jsonschema.Draft202012Validator.check_schema(schema)


def validator(schema_name, fragment=None):
    schema = schemas[schema_name]
    if fragment:
        schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{fragment}"}
    try:  # jsonschema >= 4.18
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (name, Resource.from_contents(s)) for name, s in schemas.items())
        registry = registry.with_resources(
            (s["$id"], Resource.from_contents(s)) for s in schemas.values() if "$id" in s)
        return jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:  # Debian 12's 4.10
        store = {name: s for name, s in schemas.items()}
        store.update({s["$id"]: s for s in schemas.values() if "$id" in s})
        base = schemas[schema_name].get("$id", schema_name)
        resolver = jsonschema.RefResolver(base_uri=base, referrer=schema, store=store)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)


def check(schema_name, document, what, fragment=None):
    errors = sorted(validator(schema_name, fragment).iter_errors(document), key=lambda e: list(e.path))
    for error in errors[:5]:
        failures.append(f"{what}: {'/'.join(map(str, error.path))}: {error.message[:300]}")
    print(f"{what}: {'valid' if not errors else f'{len(errors)} error(s)'} against {schema_name}")


fault_plugins = ["--no-builtin-plugins", "--plugin-path", plugins, "--timeout", "1.5"]
with tempfile.TemporaryDirectory() as scratch:
    scratch = pathlib.Path(scratch)
    junit = scratch / "doctor.xml"

    doctor = strict_json(run("doctor", "--json", "--junit", str(junit), *fault_plugins, expect=(1,)),
                         "doctor")
    check("report.schema.json", doctor, "doctor --json")
    statuses = {c["status"] for c in doctor["checks"]}
    states = {p["state"] for p in doctor["plugins"]}
    for needed in ("crashed", "timeout", "error", "fail", "pass"):
        if needed not in statuses:
            failures.append(f"doctor: no check with status {needed}: {sorted(statuses)}")
    for needed in ("loaded", "crashed", "timeout", "error", "missing_dependency"):
        if needed not in states:
            failures.append(f"doctor: no plugin in state {needed}: {sorted(states)}")
    if "host.name" not in doctor["environment"]:
        failures.append("doctor: the environment record has no host.name")

    check("report.schema.json", strict_json(run("env", "--no-builtin-plugins"), "env"), "env",
          "environment_document")
    frameworks = strict_json(run("frameworks", "--json", expect=(0, 1)), "frameworks")
    check("report.schema.json", frameworks, "frameworks --json")
    check("plugins.schema.json",
          strict_json(run("plugins", "--json", *fault_plugins[:3], expect=(0, 1)), "plugins"),
          "plugins --json")
    check("arch.schema.json",
          strict_json(run("arch", "--json", "--details", "--sm", "9.0", arch_fixtures, expect=(0, 1)), "arch"),
          "arch --json")
    check("explain.schema.json",
          strict_json(run("explain", "--json", "--no-probe", "CUDA error: no kernel image is available for "
                          "execution on the device", expect=(0, 1)), "explain"),
          "explain --json")
    for path in bench_files:
        check("bench.schema.json", strict_json(pathlib.Path(path).read_text(), path), f"bench file {path}")
    if len(bench_files) >= 2:
        check("compare.schema.json",
              strict_json(run("compare", "--json", bench_files[0], bench_files[1], expect=(0, 1)), "compare"),
              "compare --json")

    # A record, and rollout over records and over plain Google Benchmark files.
    record_path = scratch / "record.json"
    run("record", "--no-benchmarks", "--out", str(record_path), *fault_plugins, expect=(1,))
    record = strict_json(record_path.read_text(), "record")
    check("record.schema.json", record, "record --out")
    check("rollout.schema.json",
          strict_json(run("rollout", "--json", str(record_path), str(record_path), expect=(1,)), "rollout"),
          "rollout --json (records)")
    if len(bench_files) >= 2:
        check("rollout.schema.json",
              strict_json(run("rollout", "--json", bench_files[0], bench_files[1], expect=(0, 1)), "rollout"),
              "rollout --json (Google Benchmark files)")

    # JUnit, as Jenkins' xunit plugin reads it.
    lint = subprocess.run(["xmllint", "--noout", "--schema", junit_xsd, str(junit)],
                          capture_output=True, text=True)
    if lint.returncode != 0:
        failures.append(f"doctor --junit: xmllint: {lint.stderr.strip()[:1000]}")
    print(f"doctor --junit: {'valid' if lint.returncode == 0 else 'INVALID'} against {junit_xsd}")
    junit_text = junit.read_text()
    for needed in (" hostname=\"", "<properties>", " time=\""):
        if needed not in junit_text:
            failures.append(f"doctor --junit: no {needed.strip()}")

    # Markdown tables keep their columns.
    def cells(line):
        return len(re.findall(r"(?<!\\)\|", line)) - 1

    markdowns = {"doctor --markdown": run("doctor", "--markdown", *fault_plugins, expect=(1,))}
    if len(bench_files) >= 2:
        markdowns["compare --markdown"] = run("compare", "--markdown", bench_files[0], bench_files[1],
                                              expect=(0, 1))
        markdowns["rollout --markdown"] = run("rollout", "--markdown", bench_files[0], bench_files[1],
                                              expect=(0, 1))
    for what, text in markdowns.items():
        width = None
        rows = 0
        for line in text.splitlines():
            if not line.startswith("|"):
                width = None
                continue
            if width is None:
                width = cells(line)
            elif cells(line) != width:
                failures.append(f"{what}: row has {cells(line)} cells, header {width}: {line[:200]}")
            rows += 1
        print(f"{what}: {rows} table rows checked")

if failures:
    print("\n".join(["FAILED:"] + failures))
    sys.exit(1)
print("every output is accepted by its client")
