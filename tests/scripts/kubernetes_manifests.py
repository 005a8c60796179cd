#!/usr/bin/env python3
"""The shipped Kubernetes manifests (deploy/kubernetes), offline.

1. kubernetes-validate --strict against the newest and an older API
   (1.37, 1.29), with a negative control: an unknown field is refused.
2. What the schemas let through: a Job's pods must not restart forever
   (restartPolicy Never or OnFailure), a GPU count must be a whole number,
   the DaemonSet must not hold GPUs, every pod tolerates the GPU taint and
   selects nodes by GPU feature discovery's label, knows its node's name, and
   mounts the textfile directory its metrics go to.
3. Each container's own script is run here, with the manifest's environment,
   strata on PATH and the fault-injection driver: the DaemonSet's one-shot
   health check writes metrics promtool accepts, the Job writes a record
   `strata fleet` reads and prints the node's problems.

usage: kubernetes_manifests.py STRATA FAKE_DRIVER_DIR SOURCE_DIR KUBERNETES_VALIDATE_DIR   (exit 77: skipped)
"""
import copy
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

STRATA, FAKE_DIR, SOURCE, VALIDATOR = sys.argv[1:5]
if not os.path.isfile(os.path.join(VALIDATOR, "kubernetes_validate", "__init__.py")):
    print(f"SKIP: kubernetes-validate is not installed in {VALIDATOR} (scripts/setup --test installs it)")
    sys.exit(77)
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def validate(path, version):
    env = dict(os.environ, PYTHONPATH=VALIDATOR)
    return subprocess.run([sys.executable, "-m", "kubernetes_validate", "--strict", "--no-warn", "-k", version, path],
                          capture_output=True, text=True, env=env, timeout=300)


manifests = sorted(glob.glob(f"{SOURCE}/deploy/kubernetes/*.yaml"))
check(len(manifests) >= 3, f"the namespace, DaemonSet and Job manifests: {manifests}")
documents = {}
for path in manifests:
    for version in ("1.37.0", "1.29.0"):
        result = validate(path, version)
        check(result.returncode == 0, f"{os.path.basename(path)} against {version}: {result.stdout}{result.stderr}")
    for doc in yaml.safe_load_all(open(path)):
        documents[doc["kind"]] = doc

work = tempfile.mkdtemp(prefix="strata-k8s-")
try:
    # 1. The negative control: a misspelt field is refused by --strict.
    broken = copy.deepcopy(documents["Job"])
    broken["spec"]["template"]["spec"]["restartPolicyy"] = "Never"
    yaml.safe_dump(broken, open(f"{work}/broken.yaml", "w"))
    check(validate(f"{work}/broken.yaml", "1.37.0").returncode != 0, "an unknown field must be refused")

    # 2. What the schemas let through.
    daemonset, job = documents.get("DaemonSet"), documents.get("Job")
    check(daemonset is not None and job is not None, "a DaemonSet and a Job")
    for kind, doc in (("DaemonSet", daemonset), ("Job", job)):
        pod = doc["spec"]["template"]["spec"]
        container = pod["containers"][0]
        check(any(t.get("key") == "nvidia.com/gpu" for t in pod.get("tolerations", [])),
              f"{kind} tolerates the nvidia.com/gpu taint")
        check("nvidia.com/gpu.present" in pod.get("nodeSelector", {}),
              f"{kind} selects GPU nodes by GPU feature discovery's label")
        env = {e["name"]: e for e in container["env"]}
        check(env.get("NODE_NAME", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") == "spec.nodeName",
              f"{kind} gives strata its node's name")
        mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
        volumes = {v["name"]: v for v in pod["volumes"]}
        textfile = env["STRATA_TEXTFILE_DIR"]["value"]
        check(textfile in mounts and "hostPath" in volumes[mounts[textfile]],
              f"{kind} mounts the node's textfile directory at {textfile}")
        gpus = container.get("resources", {}).get("limits", {}).get("nvidia.com/gpu")
        if kind == "DaemonSet":
            check(gpus is None, "the DaemonSet must not hold GPUs (it would take them from workloads)")
            check(env.get("NVIDIA_VISIBLE_DEVICES", {}).get("value") == "all", "the DaemonSet sees every GPU")
        else:
            check(pod["restartPolicy"] in ("Never", "OnFailure"), f"a Job's restartPolicy: {pod['restartPolicy']}")
            check(isinstance(gpus, int) or (isinstance(gpus, str) and gpus.isdigit() and int(gpus) > 0),
                  f"a whole number of GPUs: {gpus!r}")
            check(doc["spec"]["completions"] == doc["spec"]["parallelism"], "one wave: completions = parallelism")
            # Several GPUs in one pod talk through /dev/shm, which a pod gets at 64 MB.
            shm = volumes.get(mounts.get("/dev/shm"), {}).get("emptyDir", {})
            check(int(gpus) < 2 or (shm.get("medium") == "Memory" and shm.get("sizeLimit", "").endswith("Gi")),
                  f"a pod with {gpus} GPUs mounts a memory-backed /dev/shm of at least 1 GiB: {shm}")

    # 3. Each container's script, run here.
    bindir = f"{work}/bin"
    os.makedirs(bindir)
    os.symlink(os.path.realpath(STRATA), f"{bindir}/strata")
    for kind, doc in (("DaemonSet", daemonset), ("Job", job)):
        container = doc["spec"]["template"]["spec"]["containers"][0]
        env = dict(os.environ)
        for item in container["env"]:
            env[item["name"]] = item.get("value", "")
        textfile, records = f"{work}/{kind}/textfile", f"{work}/{kind}/records"
        os.makedirs(textfile)
        os.makedirs(records)
        env.update(NODE_NAME="gpu001", POD_NAME=f"{kind.lower()}-x", POD_NAMESPACE="strata-system",
                   KUBERNETES_SERVICE_HOST="10.0.0.1", STRATA_INTERVAL_S="0", STRATA_TEXTFILE_DIR=textfile,
                   STRATA_RECORDS_DIR=records, PATH=f"{bindir}:{os.environ['PATH']}", LD_LIBRARY_PATH=FAKE_DIR,
                   STRATA_FAKE_CUDA="name=NVIDIA H200")
        command = container["command"] + container["args"]
        cwd = None
        if kind == "DaemonSet":
            # Its arguments are word-split, never globbed: a file in the working
            # directory that matches "runtime.*" must not replace the pattern.
            env["STRATA_HEALTH_ARGS"] = "--ignore-check runtime.*"
            cwd = f"{work}/{kind}/cwd"
            os.makedirs(cwd)
            open(f"{cwd}/runtime.planted", "w").close()
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd=cwd)
        check(result.returncode == 0, f"{kind}'s script: exit {result.returncode}\n{result.stdout}{result.stderr}")
        if kind == "DaemonSet":
            prom = f"{textfile}/strata-health.prom"
            check(os.path.exists(prom), f"the health check wrote {prom}")
            check("strata-health: doctor exited 1 on gpu001" in result.stdout, f"pod log: {result.stdout[-500:]}")
            ignored = [line for line in result.stdout.splitlines() if "(ignored)" in line and "[runtime." in line]
            check(ignored, f"--ignore-check runtime.* reached strata unglobbed: {result.stdout[-800:]}")
            if os.path.exists(prom) and shutil.which("promtool"):
                checked = subprocess.run(["promtool", "check", "metrics"], stdin=open(prom), capture_output=True,
                                         text=True)
                check(checked.returncode == 0, f"promtool: {checked.stdout}{checked.stderr}")
        else:
            check(os.path.exists(f"{records}/gpu001.json"), "the Job wrote the node's record, named by the node")
            check(os.path.exists(f"{textfile}/strata-record.prom"), "the Job wrote its metrics")
            check("fleet: 1 node(s) reported" in result.stdout and "FAIL  driver.kernel_module fails on gpu001"
                  in result.stdout, f"the pod log names the node's problems: {result.stdout[-800:]}")
finally:
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("kubernetes manifests: all checks passed")
