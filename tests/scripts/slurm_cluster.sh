#!/usr/bin/env bash
# strata under a real Slurm: munged, slurmctld and three slurmd daemons
# (nodes n1-n3 on this one host, no cgroups, no accounting), the shipped
# deploy/slurm files run by Slurm itself:
#   1. sbatch strata-qualify.sbatch over n[1-3], where n2 runs under the
#      fault-injection driver in a failing mode (NVML refuses: error 18):
#      one record per node, and `strata fleet` names n2 and its check;
#   2. strata fleet --drain --yes drains n2 (and only n2) with a strata-fleet: reason;
#   3. slurmd itself runs strata-healthcheck (HealthCheckProgram, every 5 s):
#      it drains the failing n2 (a strata-health: reason), leaves n3 and n1
#      (which a fleet review drained: not its own drain to resume), resumes n2
#      once healed, and drains n3 when one of its GPUs reports uncorrectable
#      ECC errors.
# Every daemon is stopped at the end, also when the test fails.
# usage: slurm_cluster.sh STRATA FAKE_DRIVER_DIR SOURCE_DIR   (exit 77: skipped)
set -uo pipefail
strata=$(realpath "$1") fake=$(realpath "$2") source=$(realpath "$3")
for tool in munged mungekey slurmctld slurmd sbatch scontrol sinfo; do
  if ! command -v "$tool" >/dev/null && [ ! -x "/usr/sbin/$tool" ]; then
    echo "SKIP: $tool not found: install slurm-wlm and munge (scripts/setup --test does)"
    exit 77
  fi
done
export PATH=$PATH:/usr/sbin

work=$(mktemp -d /tmp/strata-slurm.XXXXXX)
chmod 755 "$work"  # munge refuses a socket directory others cannot enter
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

stop_daemons() {
  for pidfile in "$work"/slurmd-n*.pid "$work"/slurmctld.pid "$work"/munged.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
  done
  for _ in $(seq 50); do
    alive=0
    for pidfile in "$work"/*.pid; do
      [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && alive=1
    done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for pidfile in "$work"/*.pid; do
    [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null
  done
}
finish() {
  stop_daemons
  if [ $failures -gt 0 ]; then
    for log in "$work"/slurmctld.log "$work"/slurmd-n*.log "$work"/job.out "$work"/hc-n*.log; do
      [ -f "$log" ] && { echo "--- $log"; tail -n 20 "$log"; }
    done
  fi
  rm -rf "$work"
}
trap finish EXIT

# Four free consecutive ports: slurmctld and the three slurmd.
base=$(/usr/bin/python3 - <<'PY'
import random, socket
for _ in range(200):
    base = random.randrange(20000, 60000)
    try:
        sockets = []
        for port in range(base, base + 4):
            s = socket.socket(); s.bind(("127.0.0.1", port)); sockets.append(s)
        print(base); break
    except OSError:
        pass
PY
)

mungekey --create --keyfile "$work/munge.key" || { fail "mungekey"; exit 1; }
munged --socket="$work/munge.socket" --key-file="$work/munge.key" --pid-file="$work/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munged.seed" || { fail "munged did not start"; exit 1; }

write_conf() {  # $1: HealthCheckProgram line or ""
  cat >"$work/slurm.conf" <<CONF
ClusterName=stratatest
SlurmctldHost=localhost
SlurmctldPort=$base
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool-%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
ReturnToService=2
MpiDefault=none
$1
NodeName=n[1-3] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[$((base + 1))-$((base + 3))] CPUs=1 State=UNKNOWN
PartitionName=batch Nodes=n[1-3] Default=YES MaxTime=INFINITE State=UP
CONF
}
mkdir -p "$work/state"
write_conf ""
export SLURM_CONF=$work/slurm.conf
slurmctld -f "$SLURM_CONF" || { fail "slurmctld did not start"; exit 1; }
for n in 1 2 3; do slurmd -f "$SLURM_CONF" -N "n$n" || { fail "slurmd n$n did not start"; exit 1; }; done
for _ in $(seq 100); do
  [ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle$')" = 3 ] && break
  sleep 0.3
done
[ "$(sinfo -h -N -o '%t' | grep -c '^idle$')" = 3 ] || { fail "three idle nodes: $(sinfo -N)"; exit 1; }

# strata as each node runs it: the fault-injection driver, failing on n2
# until $work/n2-healed exists.
cat >"$work/strata-node" <<NODE
#!/bin/sh
export LD_LIBRARY_PATH=$fake
export STRATA_FAKE_CUDA="name=NVIDIA H200;nvml_driver=580.65.06"
if [ "\$SLURMD_NODENAME" = n2 ] && [ ! -e "$work/n2-healed" ]; then
  export STRATA_FAKE_CUDA="\$STRATA_FAKE_CUDA;nvml_init=18"
fi
if [ "\$SLURMD_NODENAME" = n3 ] && [ -e "$work/n3-sick" ]; then
  export STRATA_FAKE_CUDA="\$STRATA_FAKE_CUDA;devices=2;ecc_uncorrected=0,4"
fi
exec "$strata" "\$@"
NODE
chmod +x "$work/strata-node"
# What fails on every node of a machine without a GPU, set aside as an
# operator would set aside a check known to fail fleet-wide.
gpu_less="--ignore-check driver.kernel_module --ignore-check runtime.*"

# ---- 1. the qualification batch job ---------------------------------------
STRATA="$work/strata-node" STRATA_RESULTS="$work/results" STRATA_RECORD_ARGS="--no-benchmarks" \
  STRATA_FLEET_ARGS="$gpu_less" timeout 300 sbatch --wait -N 3 -o "$work/job.out" \
  "$source/deploy/slurm/strata-qualify.sbatch" --level quick >/dev/null
job_status=$?
[ $job_status = 1 ] || fail "the batch job exits 1 (n2 needs attention), got $job_status"
for n in n1 n2 n3; do
  [ -s "$work/results/$n.json" ] || fail "no record from $n"
done
grep -q "FAIL  driver.version_agreement fails on n2: " "$work/job.out" ||
  fail "strata fleet names n2 and its check: $(cat "$work/job.out")"
grep -q "1 need attention: n2$" "$work/job.out" || fail "only n2 needs attention: $(cat "$work/job.out")"

# ---- 2. strata fleet --drain --yes ----------------------------------------
set -f
# shellcheck disable=SC2086
"$strata" fleet "$work/results" $gpu_less --drain --yes >"$work/drain.out" 2>&1
drain_status=$?
set +f
[ $drain_status = 1 ] || fail "fleet --drain --yes exits 1, got $drain_status: $(cat "$work/drain.out")"
# "State=IDLE+DRAIN Reason=strata-fleet: ... [root@...]"
node_state() {
  local shown
  shown=$(scontrol show node "$1")
  printf '%s Reason=%s' "$(grep -o 'State=[^ ]*' <<<"$shown" | head -n 1)" "$(sed -n 's/^ *Reason=//p' <<<"$shown")"
}
case "$(node_state n2)" in
  *DRAIN*"Reason=strata-fleet: driver.version_agreement fails"*) ;;
  *) fail "n2 drained by fleet: $(node_state n2)" ;;
esac
for n in n1 n3; do
  case "$(node_state $n)" in *DRAIN*) fail "$n must not be drained: $(node_state $n)" ;; esac
done
scontrol update nodename=n2 state=resume

# ---- 3. the health check, run by slurmd -----------------------------------
# slurmd gives a health check an empty environment: the sanitizer options of
# an ASan build of strata are handed on here.
cat >"$work/healthcheck" <<HC
#!/bin/sh
export ASAN_OPTIONS="${ASAN_OPTIONS:-}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-}"
export SLURM_CONF=$SLURM_CONF STRATA=$work/strata-node STRATA_HEALTHCHECK_CONFIG=/nonexistent
export STRATA_HEALTH_ARGS="$gpu_less" STRATA_PROMETHEUS=$work/health-\$SLURMD_NODENAME.prom
exec "$source/deploy/slurm/strata-healthcheck" >>"$work/hc-\$SLURMD_NODENAME.log" 2>&1
HC
chmod +x "$work/healthcheck"
# n1 is held by an operator after a fleet review: the health check, which
# finds n1 healthy, must not resume a drain that is not its own.
scontrol update nodename=n1 state=drain reason="strata-fleet: held after the fleet review"
write_conf "HealthCheckProgram=$work/healthcheck
HealthCheckInterval=5
HealthCheckNodeState=ANY"
scontrol reconfigure
wait_for() {  # node, pattern, seconds
  for _ in $(seq $(($3 * 2))); do
    # shellcheck disable=SC2254  # the pattern is a glob on purpose
    case "$(node_state "$1")" in $2) return 0 ;; esac
    sleep 0.5
  done
  return 1
}
wait_for n2 "*DRAIN*Reason=strata-health:\ driver.version_agreement:*" 60 ||
  fail "the health check drains n2: $(node_state n2) $(cat "$work/hc-n2.log" 2>/dev/null)"
# Each slurmd runs its health check on its own timer: n2's verdict says
# nothing about whether n1's and n3's have run yet, so wait for theirs (a
# loaded 2-core CI machine took more than 3 s to get there).
for n in n1 n3; do
  healthy=0
  for _ in $(seq 120); do
    grep -q '^strata_healthy{command="doctor"} 1$' "$work/health-$n.prom" 2>/dev/null && { healthy=1; break; }
    sleep 0.5
  done
  [ $healthy = 1 ] || fail "the health check ran on $n and wrote healthy metrics: \
$(head -n 5 "$work/health-$n.prom" 2>/dev/null) $(cat "$work/hc-$n.log" 2>/dev/null)"
  case "$n:$(node_state $n)" in
    n1:*DRAIN*"Reason=strata-fleet: held after the fleet review"*) ;;
    n1:*) fail "the health check resumed n1, drained by the fleet review, or drained it: $(node_state n1)" ;;
    *DRAIN*) fail "the health check drained a healthy node $n: $(node_state $n)" ;;
  esac
done
scontrol update nodename=n1 state=resume
touch "$work/n2-healed"
wait_for n2 "State=IDLE\ *" 60 || fail "the health check resumes the healed n2: $(node_state n2)"
# A GPU of n3 starts reporting uncorrectable ECC errors: the health verdict
# drains it with the check and the GPU in the reason.
touch "$work/n3-sick"
wait_for n3 "*DRAIN*Reason=strata-health:\ health.memory:\ GPU memory:\ GPU 1 (0000:19:00):\ 4 uncorrectable*" 60 ||
  fail "the health check drains n3 for its ECC errors: $(node_state n3)"

if [ $failures -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "slurm cluster: all checks passed"
