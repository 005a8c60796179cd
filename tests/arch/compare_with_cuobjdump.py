#!/usr/bin/env python3
"""strata arch must list the same SASS and PTX images as cuobjdump, image for image.

Usage: compare_with_cuobjdump.py STRATA CUOBJDUMP FIXTURE_DIR LIBRARY...
Compares the multiset of (kind, SM) per file. cuobjdump reads the images the
CUDA runtime registers: .nv_fatbin, or __nv_relfatbin in a relocatable object
that has no .nv_fatbin. strata also finds containers libraries load at run
time (.ldata, .cask_resource, a shared library's kept __nv_relfatbin); those
are counted and printed but cannot be compared. LTO-IR is not listed by
cuobjdump with these flags either.
"""
import collections, json, os, re, subprocess, sys

strata, cuobjdump, fixture_dir, *libraries = sys.argv[1:]
files = sorted(os.path.join(fixture_dir, f) for f in os.listdir(fixture_dir)) + libraries
line_re = re.compile(r"^(ELF|PTX) file\s+\d+: .*\.sm_(\d+)[af]?\.(cubin|ptx)$")
failures = 0
for path in files:
    if not os.path.exists(path):
        print(f"missing {path}")
        failures += 1
        continue
    listing = subprocess.run([cuobjdump, "--list-elf", "--list-ptx", path], capture_output=True, text=True)
    theirs = collections.Counter()
    for line in listing.stdout.splitlines():
        m = line_re.match(line.strip())
        if m:
            theirs[("sass" if m.group(1) == "ELF" else "ptx", int(m.group(2)))] += 1
    report = json.loads(subprocess.run([strata, "arch", "--json", path], capture_output=True, text=True).stdout)
    ours = collections.Counter()
    other = 0
    extra_sections = collections.Counter()
    for f in report["files"]:
        assert "error" not in f, f"{path}: {f.get('error')}"
        section_of = lambda image: image["section"].rsplit(":", 1)[-1]
        if f["format"] in ("cubin", "fatbin"):
            registered = {section_of(i) for i in f["images"]}  # the whole file is the image(s)
        elif any(section_of(i) == ".nv_fatbin" for i in f["images"]):
            registered = {".nv_fatbin"}
        else:
            registered = {"__nv_relfatbin"}
        for image in f["images"]:
            if section_of(image) not in registered:
                extra_sections[section_of(image)] += 1
            elif image["kind"] in ("sass", "ptx"):
                ours[(image["kind"], image["sm"])] += 1
            else:
                other += 1
    same = ours == theirs
    failures += not same
    total = sum(ours.values())
    extra = ", ".join(f"{n} in {s}" for s, n in sorted(extra_sections.items()))
    print(f"{'ok  ' if same else 'DIFF'} {os.path.basename(path)}: {total} images"
          + (f" (+{other} LTO-IR/other)" if other else "")
          + (f"; also found, not registered with the runtime: {extra}" if extra else ""))
    if not same:
        print(f"     only strata:    {dict(ours - theirs)}")
        print(f"     only cuobjdump: {dict(theirs - ours)}")
    if total == 0:
        print(f"     {path} has no SASS or PTX: the comparison proves nothing")
        failures += 1
sys.exit(1 if failures else 0)
