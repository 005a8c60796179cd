"""What the tests that run `strata frameworks` on real installs share: ok/FAIL lines with a
count, one `strata frameworks --json` run, and lookups in the report it prints."""
import json
import os
import subprocess


class Expectations:
    """expect(condition, message) prints one line; exit_code() is 1 after any failure."""

    def __init__(self):
        self.failures = 0

    def __call__(self, condition, message):
        print(("ok   " if condition else "FAIL ") + message)
        self.failures += not condition

    def exit_code(self):
        return 1 if self.failures else 0


def run_frameworks(strata, *args, cwd=None, timeout=300):
    """strata frameworks --json ARGS...: (exit status, report). Its stderr is shown when it
    exits other than 0 (all pass) or 1 (a check failed)."""
    run = subprocess.run([strata, "frameworks", "--json", *args], capture_output=True, text=True, cwd=cwd,
                         timeout=timeout)
    if run.returncode not in (0, 1):
        print(run.stderr)
    return run.returncode, json.loads(run.stdout)


def judge(strata, directory, sm, driver, cwd=None):
    """One site-packages directory judged for a compute capability and a driver version."""
    return run_frameworks(strata, "--site-packages", directory, "--sm", sm, "--driver", driver, cwd=cwd)


def check(report, check_id):
    """The check with this id; an 'absent' stand-in when there is none."""
    return next((c for c in report["checks"] if c["id"] == check_id),
                {"id": check_id, "status": "absent", "summary": "", "evidence": "", "remedy": ""})


def statuses(report, suffix=""):
    """{check id: status}, for the ids that end with suffix."""
    return {c["id"]: c["status"] for c in report["checks"] if c["id"].endswith(suffix)}


def fact(report, key):
    """A fact's value from the report's environment; None when it is not there."""
    return report["environment"].get(key, {}).get("value")


def installed(cache, name):
    """CACHE/NAME/site where scripts/setup installed it, else None, and a line saying it is left
    out (setup leaves an install out where the disk is too small, and says so)."""
    site = os.path.join(cache, name, "site")
    if os.path.isfile(os.path.join(site, ".strata-ready")):
        return os.path.realpath(site)
    print(f"left out {name}: not installed in {cache} (scripts/setup printed why)")
    return None
