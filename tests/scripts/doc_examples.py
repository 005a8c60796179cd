#!/usr/bin/env python3
"""Every example in the README and docs/ is run, and its output compared.

A Markdown block fenced as ```console is an example: lines starting with
"$ " are commands (run with bash, build/bin first on PATH, in the repository
root), the lines after each are what it prints. A change that alters an
output fails this test until the docs follow; `--update` rewrites the
expected output of blocks that use no wildcard.

Before comparing, both sides are normalised: the repository's absolute path
becomes relative, timestamps, durations and revisions become placeholders.
In an expected output, a line "..." matches any number of lines and "[...]"
any text within a line, for what depends on the machine (its kernel, its
/dev/shm) or on timing (a benchmark's figures).

An HTML comment right before the block sets how it runs, keys separated by
";":
    <!-- doc-test: env NAME=VALUE NAME=VALUE; stderr; needs PATH; skip REASON -->
env      adds variables (values with @FAKES@ name the fake driver's directory),
stderr   compares standard error too (appended after standard output),
needs    skips the block, saying so, where PATH (a test artefact) is absent,
skip     never runs it: the reason is printed (a GPU's figures, a Slurm
         cluster) and must be given.

usage: doc_examples.py STRATA_BUILD_DIR [--update] [FILE...]   (exit 1: a mismatch)
"""
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
MARKER = "@@strata-doc-example@@"


def documents(paths):
    if paths:
        return [os.path.realpath(p) for p in paths]
    found = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "CONTRIBUTING.md")]
    for directory, _, files in os.walk(os.path.join(ROOT, "docs")):
        found += [os.path.join(directory, f) for f in sorted(files) if f.endswith(".md")]
    return sorted(found)


def blocks(text):
    """(directive, start line, end line, [(command, [expected lines])]) per console block."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        directive = ""
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        if j >= 0 and lines[j].strip().startswith("<!-- doc-test:"):
            directive = lines[j].strip()[len("<!-- doc-test:"):].rstrip("->").strip()
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        steps = []
        for line in lines[i + 1:end]:
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
            else:
                raise SystemExit(f"a console block must start with '$ ' (line {i + 2})")
        out.append((directive, i, end, steps))
        i = end + 1
    return out


def parse_directive(text, build):
    options = {"env": {}, "stderr": False, "needs": [], "skip": None}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, _, value = part.partition(" ")
        if key == "env":
            for item in shlex.split(value.replace("@FAKES@", os.path.join(build, "tests/fakes/lib"))):
                name, _, val = item.partition("=")
                options["env"][name] = val
        elif key == "stderr":
            options["stderr"] = True
        elif key == "needs":
            options["needs"].append(value.strip())
        elif key == "skip":
            if not value.strip():
                raise SystemExit("'skip' needs a reason")
            options["skip"] = value.strip()
        else:
            raise SystemExit(f"unknown doc-test key '{key}'")
    return options


def normalise(text, build=None):
    # The build tree the test runs (build-sanitize for the ASan suite) is the
    # pages' build/.
    if build:
        text = text.replace(build + "/", "build/").replace(os.path.relpath(build, ROOT) + "/", "build/")
    text = text.replace(ROOT + "/", "").replace(ROOT, ".")
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", "<time>", text)
    text = re.sub(r'"duration_ms": \d+', '"duration_ms": <ms>', text)
    text = re.sub(r"revision: \S+", "revision: <revision>", text)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def matches(expected, actual):
    """expected: lines with '...' and '[...]' wildcards; actual: lines."""
    patterns = [None if line.strip() == "..." else
                re.compile("^" + ".*".join(re.escape(p) for p in line.rstrip().split("[...]")) + "$")
                for line in expected]
    memo = {}

    def match(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(patterns):
            result = j == len(actual)
        elif patterns[i] is None:
            result = any(match(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            result = j < len(actual) and bool(patterns[i].match(actual[j])) and match(i + 1, j + 1)
        memo[(i, j)] = result
        return result

    sys.setrecursionlimit(100000)
    return match(0, 0)


def run_block(steps, options, build):
    script = []
    for command, _ in steps:
        script.append(command)
        script.append(f"__status=$?; printf '\\n{MARKER}\\n'; printf '\\n{MARKER}\\n' >&2; (exit $__status)")
    env = dict(os.environ)
    env["PATH"] = os.path.join(build, "bin") + ":" + env.get("PATH", "")
    env.pop("STRATA_PLUGIN_PATH", None)
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    env.update(options["env"])
    result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=ROOT, env=env, capture_output=True,
                            text=True, errors="replace", timeout=600)
    outs = result.stdout.split(f"\n{MARKER}\n")
    errs = result.stderr.split(f"\n{MARKER}\n")
    actual = []
    for k in range(len(steps)):
        text = outs[k] if k < len(outs) else ""
        if options["stderr"]:
            err = errs[k] if k < len(errs) else ""
            text = text.rstrip("\n") + ("\n" + err if err.strip() else "")
        actual.append(normalise(text, build))
    return actual


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    build = os.path.realpath(args.pop(0))
    update = "--update" in args
    args = [a for a in args if a != "--update"]
    failures, ran, skipped = 0, 0, []
    for path in documents(args):
        text = open(path).read()
        if ROOT + "/" in text:
            failures += 1
            print(f"FAIL {os.path.relpath(path, ROOT)}: spells this checkout's path ({ROOT}); write it relative")
        found = blocks(text)
        if not found:
            continue
        lines = text.split("\n")
        replacements = []
        for directive, start, end, steps in found:
            where = f"{os.path.relpath(path, ROOT)}:{start + 2}"
            options = parse_directive(directive, build)
            if options["skip"]:
                skipped.append(f"{where}: {options['skip']}")
                continue
            missing = [n for n in options["needs"] if not os.path.exists(os.path.join(ROOT, n))]
            if missing:
                skipped.append(f"{where}: {missing[0]} is absent (scripts/setup --test fetches it)")
                continue
            ran += 1
            actual = run_block(steps, options, build)
            wildcards = any(l.strip() == "..." or "[...]" in l for _, exp in steps for l in exp)
            for (command, expected), got in zip(steps, actual):
                want = normalise("\n".join(expected))
                got_lines = got.split("\n") if got else []
                want_lines = want.split("\n") if want else []
                if matches(want_lines, got_lines):
                    continue
                if update and not wildcards:
                    continue
                failures += 1
                print(f"FAIL {where}: $ {command}\n--- documented\n{want}\n--- printed\n{got}\n")
            if update and not wildcards:
                body = []
                for (command, _), got in zip(steps, actual):
                    body.append("$ " + command)
                    body += got.split("\n") if got else []
                replacements.append((start, end, body))
        if update and replacements:
            for start, end, body in reversed(replacements):
                lines[start + 1:end] = body
            open(path, "w").write("\n".join(lines))
    for line in skipped:
        print(f"skipped {line}")
    print(f"{ran} example block(s) run, {len(skipped)} skipped, {failures} mismatch(es)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
