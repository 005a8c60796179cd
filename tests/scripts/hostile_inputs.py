#!/usr/bin/env python3
"""strata against hostile inputs and hostile hosts, end to end.

Each case runs the real binary and asserts the documented exit status, a
bounded time, a bounded peak memory (of strata itself, from wait4), one-line
errors where it fails, and that no process it started is left behind (every
case's processes carry a marker in their environment, searched for in /proc
afterwards).

Usage: hostile_inputs.py STRATA HOSTILE_PLUGIN_DIR TEST_PLUGIN_DIR ARCH_FIXTURES
Under sanitizers set STRATA_HOSTILE_SCALE (time and memory limits are
multiplied by it): ASan is slower and its shadow memory counts as RSS.
"""
import json
import os
import pathlib
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid

strata, hostile_plugins, test_plugins, arch_fixtures = sys.argv[1:5]
scale = float(os.environ.get("STRATA_HOSTILE_SCALE", "1"))
scratch = pathlib.Path(tempfile.mkdtemp(prefix="strata-hostile-"))
failures = []
passed = 0


def processes_with(marker):
    """PIDs whose environment holds the marker (this case's children)."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def run(name, argv, expect, seconds, megabytes, stdin=None, env=None, user=None, after_start=None,
        check=None, one_line_error=True):
    """One case. `expect`: the exit status; `after_start(process)` acts while it runs."""
    global passed
    marker = f"STRATA_HOSTILE_CASE={uuid.uuid4().hex}"
    environment = dict(os.environ, **(env or {}))
    environment[marker.split("=")[0]] = marker.split("=")[1]
    command = [strata, *argv]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    stdin_file = open(stdin, "rb") if isinstance(stdin, str) else subprocess.DEVNULL
    started = time.monotonic()
    process = subprocess.Popen(command, stdin=stdin_file, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environment, start_new_session=True)
    if after_start:
        after_start(process)
    limit = seconds * scale
    # Read both pipes on threads and reap with wait4, for strata's own peak RSS.
    chunks = {"out": [], "err": []}
    readers = [threading.Thread(target=lambda stream=stream, key=key: chunks[key].append(stream.read()))
               for stream, key in ((process.stdout, "out"), (process.stderr, "err"))]
    for reader in readers:
        reader.start()
    raw_status, usage = None, None
    while raw_status is None:
        pid, status_word, rusage = os.wait4(process.pid, os.WNOHANG)
        if pid == process.pid:
            raw_status, usage = status_word, rusage
        elif time.monotonic() - started > limit:
            os.killpg(process.pid, signal.SIGKILL)
            failures.append(f"{name}: still running after {limit:.0f} s")
            _, raw_status, usage = os.wait4(process.pid, 0)
        else:
            time.sleep(0.02)
    process.returncode = os.waitstatus_to_exitcode(raw_status)
    for reader in readers:
        reader.join(timeout=5)
    out, err = b"".join(chunks["out"]), b"".join(chunks["err"])
    elapsed = time.monotonic() - started
    if isinstance(stdin, str):
        stdin_file.close()
    status = process.returncode if process.returncode >= 0 else 128 - process.returncode
    problems = []
    if status != expect:
        problems.append(f"exit {status}, expected {expect}: {err.decode(errors='replace').strip()[:300]}")
    if one_line_error and expect == 2 and err.decode(errors="replace").count("\n") != 1:
        problems.append(f"not a one-line error: {err.decode(errors='replace')[:300]!r}")
    peak_mb = usage.ru_maxrss / 1024  # strata's own peak, from wait4
    if peak_mb > megabytes * scale:
        problems.append(f"peak memory {peak_mb:.0f} MB over {megabytes * scale:.0f} MB")
    time.sleep(0.2)
    left = processes_with(marker)
    if left:
        problems.append(f"processes left behind: {left}")
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    if check and not problems:
        problem = check(out.decode(errors="replace"), err.decode(errors="replace"))
        if problem:
            problems.append(problem)
    if problems:
        failures.extend(f"{name}: {p}" for p in problems)
        print(f"FAIL {name} ({elapsed:.1f} s)")
    else:
        passed += 1
        print(f"ok   {name} ({elapsed:.1f} s, {peak_mb:.0f} MB, exit {status})")


def write(name, data, mode="w"):
    path = scratch / name
    with open(path, mode) as f:
        f.write(data)
    return str(path)


def benchmark_file(name, entries):
    return write(name, json.dumps({"context": {}, "benchmarks": entries}))


def repetitions(bench, count, base):
    return [{"name": bench, "run_name": bench, "run_type": "iteration", "real_time": base + i % 7,
             "cpu_time": base, "time_unit": "ns", "iterations": 1} for i in range(count)]


def section_bomb(source, copies):
    """`source` with `copies` extra section headers, each pointing at its
    fat-binary section: one byte range, named many times."""
    data = bytearray(pathlib.Path(source).read_bytes())
    assert data[:4] == b"\x7fELF" and data[4] == 2, "an ELF64 fixture"
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [bytes(data[shoff + i * shentsize: shoff + (i + 1) * shentsize]) for i in range(shnum)]
    strtab_offset, = struct.unpack_from("<Q", headers[shstrndx], 0x18)
    fatbin = None
    for header in headers:
        name_offset, = struct.unpack_from("<I", header, 0)
        end = data.index(b"\0", strtab_offset + name_offset)
        if data[strtab_offset + name_offset:end] == b".nv_fatbin":
            fatbin = header
    assert fatbin, "a fixture with .nv_fatbin"
    copies = min(copies, 0xFF00 - shnum)
    new_offset = len(data) + (-len(data) % 8)
    data += b"\0" * (new_offset - len(data))
    for header in headers + [fatbin] * copies:
        data += header
    struct.pack_into("<Q", data, 0x28, new_offset)
    struct.pack_into("<H", data, 0x3C, shnum + copies)
    return bytes(data)


def no_raw_escape(out, err):
    text = out + err
    for sequence in ("\x1b]", "\x1b[2J", "\x07", "\x9b", "\x1b[8m"):
        if sequence in text:
            return f"raw control sequence {sequence!r} printed"
    return None


try:
    fifo = scratch / "input.fifo"
    os.mkfifo(fifo)

    # Inputs that are not files, or never end.
    # arch lists a file it cannot read in its place, with the reason (exit 2).
    # Each unreadable file is one "strata: error:" line on standard error.
    def reported(reason):
        return lambda out, err: None if reason in err and err.startswith("strata: error: ") \
            else f"no '{reason}' in: {err[:300]}"
    run("arch on a FIFO", ["arch", str(fifo)], 2, 5, 200, check=reported("not a regular file"))
    run("arch on /dev/zero", ["arch", "/dev/zero"], 2, 5, 200, check=reported("not a regular file"))
    # Endless input: read to 1 GiB in bounded memory (its first 2 MiB and last
    # 6 MiB kept), then reading stops with one line on stderr; NULs explain
    # nothing (exit 1).
    run("explain < /dev/zero", ["explain", "--no-probe"], 1, 20, 100, stdin="/dev/zero",
        check=lambda out, err: None if err.count("\n") == 1 and "went on past 1024.0 MiB" in err
        else f"not one line saying where reading stopped: {err[:300]!r}")
    run("explain --evaluate a FIFO", ["explain", "--evaluate", str(fifo)], 2, 5, 200)
    run("compare /dev/zero", ["compare", "/dev/zero", "/dev/zero"], 2, 5, 200)
    run("compare a FIFO", ["compare", str(fifo), str(fifo)], 2, 5, 200)

    # Oversized and deeply nested files.
    sparse = scratch / "sparse.json"
    with open(sparse, "wb") as f:
        f.truncate(1 << 40)  # 1 TB that costs nothing: refused by its size
    run("compare a 1 TB sparse file", ["compare", str(sparse), str(sparse)], 2, 5, 200)
    deep = write("deep.json", "[" * 200000 + "]" * 200000)
    run("compare JSON nested 200,000 deep", ["compare", deep, deep], 2, 5, 200)
    deep_records = write("deep.jsonl", "{\"a\":" * 100000 + "1" + "}" * 100000 + "\n")
    run("explain --evaluate a record nested 100,000 deep", ["explain", "--evaluate", deep_records], 2, 5, 200)
    log = write("long.log", ("ImportError: libcudnn.so.9: cannot open shared object file " * 20 + "\n") * 5000)
    run("explain on 6 MB of failure lines", ["explain", "--no-probe"], 0, 60, 400, stdin=log, one_line_error=False)
    # One line that is a single path-like run, read by the context readers
    # (libcuda shown present, cuda-compat on the path): each run judged once.
    for name, text in (("libcuda-run", "=> " + "libcuda.so.1" * 500000 +
                        "\nOSError: libcuda.so: cannot open shared object file\n"),
                       ("compat-run", "=> /" + "compat" * 1000000 + "\nCUDA error 803\n")):
        run(f"explain on a 6 MB {name} line", ["explain", "--no-probe"], 0, 20, 400,
            stdin=write(f"{name}.log", text), one_line_error=False)

    # Work that was quadratic.
    few = benchmark_file("few.json", repetitions("BM_x", 8, 1000))
    many = benchmark_file("many.json", repetitions("BM_x", 20000, 1010))
    run("compare 8 against 20,000 repetitions", ["compare", few, many], 0, 10, 400, one_line_error=False)
    names_a = benchmark_file("names-a.json", [e for i in range(50000) for e in repetitions(f"BM_{i}", 2, 100)])
    names_b = benchmark_file("names-b.json", [e for i in range(50000) for e in repetitions(f"BM_{i}", 2, 101)])
    run("compare 50,000 names", ["compare", names_a, names_b], 0, 20, 900, one_line_error=False)

    # Names, metadata and plugin text that try to drive the terminal.
    evil = benchmark_file("evil.json", repetitions("BM_\x1b]0;pwned\x07\x1b[2J\u009b2J", 3, 100))
    run("compare prints no raw escape sequence", ["compare", evil, evil], 0, 5, 200, check=no_raw_escape,
        one_line_error=False)
    run("compare --markdown prints no raw escape sequence", ["compare", "--markdown", evil, evil], 0, 5, 200,
        check=no_raw_escape, one_line_error=False)
    # A line break in a name printed a line of strata's own shape; conceal
    # hid every row after it (#37 item 11).
    forged = "BM_x\n  FAIL  forged: every node is fine\x1b[8m"
    forge_a = write("forge-a.json", json.dumps({"context": {"host_name": "n1"},
                                                "benchmarks": repetitions(forged, 5, 100)}))
    forge_b = write("forge-b.json", json.dumps({"context": {"host_name": "n1"},
                                                "benchmarks": repetitions(forged, 5, 200)}))

    def no_forged_line(out, err):
        if any(line.lstrip().startswith("FAIL  forged") for line in (out + err).splitlines()):
            return "a name printed a line of its own"
        return no_raw_escape(out, err)

    for argv, status in ((["compare"], 0), (["compare", "--markdown"], 0), (["rollout"], 1),
                         (["rollout", "--markdown"], 1)):
        run(f"{' '.join(argv)}: a name with a line break stays on its row", argv + [forge_a, forge_b], status, 5,
            200, check=no_forged_line, one_line_error=False)
    fleet_dir = scratch / "forged-fleet"
    fleet_dir.mkdir()
    for i in range(4):
        entries = repetitions(forged, 5, 300 if i == 0 else 100)
        (fleet_dir / f"n{i}.json").write_text(json.dumps({"context": {"host_name": f"n{i}"}, "benchmarks": entries}))
    run("fleet: a name with a line break stays on its row", ["fleet", str(fleet_dir)], 1, 5, 200,
        check=no_forged_line, one_line_error=False)

    # A decompression bomb: 20 entries of 16 bytes each that declare 2 GiB
    # images (zstd and LZ4). `arch --details` zero-filled 2 GiB per entry
    # before decompressing (issue #37); what a payload can produce bounds it.
    entries = b""
    for index in range(20):
        header = bytearray(0x40)
        struct.pack_into("<HHIQI", header, 0, 2, 0x0101, 0x40, 16, 16)
        struct.pack_into("<HHI", header, 0x18, 0, 0, 90)
        struct.pack_into("<Q", header, 0x28, 0x8000 if index % 2 == 0 else 0x2000)
        struct.pack_into("<Q", header, 0x38, (2 << 30) - 1)
        entries += bytes(header) + (b"\x28\xb5\x2f\xfd" if index % 2 == 0 else b"\x1f") * 4 + bytes(16)[:16 - 4 * (4 if index % 2 == 0 else 1)]
    raw = struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(entries)) + entries
    inflated = write("inflated.fatbin", raw, "wb")
    run("arch --details on entries that declare 2 GiB each", ["arch", "--details", inflated], 0, 10, 300,
        one_line_error=False)

    # A section bomb: one fat binary named by 60,000 section headers.
    fixture = pathlib.Path(arch_fixtures) / "libtwo_units.so"
    bomb = write("bomb.so", section_bomb(fixture, 60000), "wb")
    run("arch on a section bomb", ["arch", bomb], 0, 10, 300, one_line_error=False,
        check=lambda out, err: None if "image(s)" in out else "the bomb's images were not listed: " + out[:300])
    run("frameworks over a section bomb in site-packages",
        ["frameworks", "--site-packages", str(scratch)], 0, 20, 400, one_line_error=False,
        env={"PATH": "/nonexistent"})

    # Many copies of one large library: one is mapped at a time.
    big = pathlib.Path("/usr/local/cuda/lib64/libcublasLt.so.13")
    if big.exists():
        copies = scratch / "copies"
        copies.mkdir()
        for i in range(12):
            os.link(big, copies / f"libcublasLt-{i}.so") if os.stat(big).st_dev == os.stat(scratch).st_dev \
                else os.symlink(big, copies / f"libcublasLt-{i}.so")
        one = scratch / "one"
        one.mkdir()
        os.symlink(big, one / "libcublasLt.so")
        if os.stat(big).st_dev == os.stat(scratch).st_dev:
            run("arch on 12 hard links of cuBLASLt (540 MB each)", ["arch", str(copies)], 0, 120, 1500,
                one_line_error=False)

    # RECORD entries that leave site-packages are not the package's files.
    site = scratch / "site"
    info = site / "evilpkg-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evilpkg\nVersion: 1.0\n")
    outside = pathlib.Path(test_plugins) / "libstrata_plugin_test_ok.so"
    (info / "RECORD").write_text(f"../../../../../../{outside},,\n{outside},,\nevilpkg/__init__.py,,\n")
    run("frameworks does not follow RECORD out of site-packages",
        ["frameworks", "--json", "--site-packages", str(site)], 0, 20, 400, one_line_error=False,
        check=lambda out, err: "libstrata_plugin_test_ok" in out and "RECORD escape followed" or None)

    # A Python that closes its output and never exits.
    python = write("python3", "#!/bin/sh\nexec >&- 2>&-\nsleep 1000 &\nsleep 1000\n")
    os.chmod(python, 0o755)
    # It gave nothing to read: bad input, after its deadline, not a hang.
    run("frameworks --python that hangs with its output closed",
        ["frameworks", "--python", python], 2, 30, 300)

    # Hostile plugins: killing strata, flooding it, asking for forever.
    run("doctor with plugins that kill, flood and hang",
        ["doctor", "--no-builtin-plugins", "--plugin-path", hostile_plugins, "--timeout", "3"], 1, 90, 700,
        one_line_error=False)
    open_dir = scratch / "open-plugins"
    open_dir.mkdir()
    shutil.copy(pathlib.Path(test_plugins) / "libstrata_plugin_test_ok.so", open_dir)
    os.chmod(open_dir, 0o777)
    run("a world-writable plugin directory is refused",
        ["plugins", "--no-builtin-plugins", "--plugin-path", str(open_dir)], 1, 10, 200, one_line_error=False,
        check=lambda out, err: None if "writable by everyone" in out else "no refusal reason: " + out[:300])

    # Signals mid-run: every worker's process group ends with strata.
    for signal_number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        def send(process, signal_number=signal_number):
            time.sleep(1.5)
            process.send_signal(signal_number)
        run(f"{signal.Signals(signal_number).name} to doctor ends its workers",
            ["doctor", "--no-builtin-plugins", "--plugin-path",
             str(pathlib.Path(hostile_plugins) / "libstrata_plugin_test_declared_hang.so"), "--timeout", "100"],
            128 + signal_number, 20, 300, after_start=send, one_line_error=False)

    # A daemon a plugin starts (double fork, setsid, descriptors closed) is
    # out of every process group strata kills: it must still end with strata
    # (issue #37). The case fails on any process left with its marker.
    run("a plugin's daemon (setsid, double fork) ends with strata",
        ["doctor", "--no-builtin-plugins", "--plugin-path",
         str(pathlib.Path(hostile_plugins) / "libstrata_plugin_test_daemon.so")],
        1, 30, 300, one_line_error=False)

    # Output that cannot be written is a failure, not a silent 0.
    with open("/dev/full", "w") as full:
        result = subprocess.run([strata, "explain", "--no-probe", "CUDA error 999"], stdout=full,
                                stderr=subprocess.PIPE, timeout=30)
    if result.returncode != 3:
        failures.append(f"explain > /dev/full: exit {result.returncode}, expected 3")
    else:
        passed += 1
        print("ok   explain > /dev/full (exit 3)")

    # Unreadable paths, as a user who cannot read them.
    if os.geteuid() == 0 and shutil.which("setpriv"):
        private = scratch / "shared" / "private"
        private.mkdir(parents=True)
        shutil.copy(fixture, scratch / "shared" / "readable.so")
        os.chmod(private, 0o700)
        for path in (scratch, scratch / "shared", scratch / "shared" / "readable.so"):
            os.chmod(path, 0o755)
        runner = scratch / "bin"
        runner.mkdir()
        shutil.copy(strata, runner / "strata")
        os.chmod(runner, 0o755)
        strata_as_user = str(runner / "strata")
        saved, strata = strata, strata_as_user
        run("arch as nobody: an unreadable directory is reported, not empty",
            ["arch", str(scratch / "shared")], 2, 10, 200, user=65534, one_line_error=False,
            check=lambda out, err: None if "cannot read directory" in err else "not reported: " + err[:300])
        strata = saved
    else:
        print("skip unreadable paths: needs root to act as another user")

    # Links another user planted at and beside an output path, in a shared
    # directory anyone may write (not sticky, so the kernel's
    # protected_symlinks does not step in): root overwrote the file a link
    # pointed at (issue #37).
    if os.geteuid() == 0 and shutil.which("setpriv"):
        shared = scratch / "results"
        shared.mkdir()
        os.chmod(scratch, 0o755)
        os.chmod(shared, 0o777)
        victim = scratch / "victim"
        victim.write_text("root's own file\n")
        os.chmod(victim, 0o600)
        as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        for name in ("record.json.partial", "doctor.prom.partial", "junit.xml.partial", "bench.json.partial",
                     "junit.xml"):
            subprocess.run(as_nobody + ["ln", "-s", str(victim), str(shared / name)], check=True)
        for argv in (["record", "--no-benchmarks", "--out", str(shared / "record.json")],
                     ["doctor", "--level", "health", "--prometheus", str(shared / "doctor.prom")],
                     ["doctor", "--level", "health", "--junit", str(shared / "junit.xml")]):
            subprocess.run([strata, *argv], capture_output=True, timeout=300)
        intact = victim.read_text() == "root's own file\n"
        regular = all((shared / n).is_file() and not (shared / n).is_symlink() for n in ("record.json", "doctor.prom"))
        left = sorted(p.name for p in shared.iterdir() if p.name.startswith("."))
        if intact and regular and not left:
            passed += 1
            print("ok   links planted at and beside output paths are never written through")
        else:
            failures.append(f"planted links: victim intact {intact}, outputs regular files {regular}, "
                            f"temporary files left {left}")
    else:
        print("skip planted links: needs root to act as another user")

    # A Python environment another user owns: its .pth files run at every
    # start of its interpreter, as root under `sudo -E strata doctor` from an
    # activated venv (issue #37). strata reads it, never runs it.
    if os.geteuid() == 0:
        venv = scratch / "their-venv"
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv)], check=True)
        site_dirs = list(venv.glob("lib/python3*/site-packages"))
        ran_as_root = scratch / "pth-ran-as-root"
        site_dirs[0].joinpath("zz-theirs.pth").write_text(
            f"import os; open({str(ran_as_root)!r}, 'w').close()\n")
        for path in [venv, *venv.rglob("*")]:
            os.lchown(path, 65534, 65534)
        for argv, env in ((["frameworks", "--python", str(venv / "bin" / "python3")], None),
                          (["frameworks"], {"VIRTUAL_ENV": str(venv)}),
                          (["frameworks", "--prove", "--python", str(venv / "bin" / "python3")], None)):
            environment = dict(os.environ, **(env or {}))
            result = subprocess.run([strata, *argv], capture_output=True, text=True, env=environment, timeout=120)
            said = "not run: the interpreter" in result.stdout + result.stderr or \
                   "not run: its packages" in result.stdout + result.stderr
            if ran_as_root.exists() or not said:
                failures.append(f"{' '.join(argv)} {env or ''}: another user's .pth ran as root "
                                f"{ran_as_root.exists()}, refusal said {said}: {result.stdout[-300:]}")
                ran_as_root.unlink(missing_ok=True)
            else:
                passed += 1
                print(f"ok   {' '.join(argv[:2])} {'VIRTUAL_ENV' if env else ''}: another user's venv is read, not run")
    else:
        print("skip another user's venv: needs root to act as another user")

    # A library directory anyone may write, put first on the loader path of
    # workers that run as root (issue #37): refused before anything loads.
    toolkit_lib = pathlib.Path("/usr/local/cuda/lib64")
    if (toolkit_lib / "libnccl.so.2").exists() and (toolkit_lib / "stubs" / "libcuda.so").exists():
        open_libs = scratch / "open-libs"
        open_libs.mkdir()
        os.chmod(open_libs, 0o777)
        os.symlink(toolkit_lib / "libnccl.so.2", open_libs / "libnccl.so.2")
        os.symlink(toolkit_lib / "stubs" / "libcuda.so", open_libs / "libcuda.so.1")
        refused = lambda out, err: None if "not loaded: directory" in err and "writable by everyone" in err \
            else "not refused for its directory: " + err[:300]
        run("bench --side-by-side refuses a library directory anyone may write",
            ["bench", "--side-by-side", f"toolkit={toolkit_lib}", f"open={open_libs}"], 2, 10, 300, check=refused)
        run("rollout --compat-driver refuses a directory anyone may write",
            ["rollout", "--compat-driver", str(open_libs)], 2, 10, 300, check=refused)
    else:
        print("skip open library directories: no toolkit libraries in /usr/local/cuda/lib64")
finally:
    for path in scratch.rglob("*"):
        try:
            os.chmod(path, 0o700) if path.is_dir() else None
        except OSError:
            pass
    shutil.rmtree(scratch, ignore_errors=True)

print(f"{passed} case(s) passed, {len(failures)} problem(s)")
if failures:
    print("\n".join(["FAILED:"] + failures))
    sys.exit(1)
