#!/usr/bin/env bash
# The Slurm path (scripts/slurm/) against a real Slurm: a single-node slurmctld + slurmd + munged
# from Debian's packages (slurm-wlm, munge; scripts/setup installs them) on localhost, with a
# generated slurm.conf, munge key and spool in a temporary folder. It submits a small array sweep
# with scripts/slurm/submit from another folder, cancels one task mid-run and another before it
# starts, checks that the merge step still runs (afterany) and refuses with exactly the missing
# units, reruns the two tasks (one with a plain `sbatch --array=K`, one with submit --array=K),
# and checks that the merged rows equal a single-process `navbench sweep` of the same config
# (timing and memory columns aside).
#
# Usage: test_slurm.sh NAVBENCH_BINARY SOURCE_DIR
# Exit: 0 passed, 1 failed, 77 skipped (prints "SKIP: reason": not root, packages missing, or the
# daemons cannot start or run a job here). Every daemon and job is stopped on exit.
set -uo pipefail
nb=${1:?usage: test_slurm.sh NAVBENCH_BINARY SOURCE_DIR}
src=${2:?usage: test_slurm.sh NAVBENCH_BINARY SOURCE_DIR}
nb=$(cd "$(dirname "$nb")" && pwd)/$(basename "$nb")
src=$(cd "$src" && pwd)
SKIP=77
t_start=$(date +%s)
skip() { echo "SKIP: $*"; exit $SKIP; }
say() { echo "[$(( $(date +%s) - t_start ))s] $*"; }

PATH=$PATH:/usr/sbin:/sbin  # the daemons live in sbin, often not on a CI PATH
[ "$(id -u)" -eq 0 ] || skip "needs root: slurmd runs jobs as their user and must start as root (run the test as root, e.g. in CI)"
for c in slurmctld slurmd munged munge unmunge sbatch squeue scancel scontrol sinfo python3 timeout setsid; do
  command -v "$c" >/dev/null || skip "$c not found: install the Debian packages slurm-wlm and munge (scripts/setup does)"
done
[ -x "$nb" ] || { echo "FAIL: $nb: no navbench binary"; exit 1; }

# A job started from the test must not inherit the settings of an enclosing Slurm job or of the user.
while IFS= read -r v; do unset "$v"; done < <(env | sed -n 's/^\(\(SLURM\|SBATCH\|SQUEUE\|SACCT\|SALLOC\|SRUN\)_[A-Za-z0-9_]*\)=.*/\1/p')
unset NAVBENCH_REPO NAVBENCH_BIN

# Daemon files under /tmp: munge's socket path must stay short (< 108 bytes).
tmp=$(mktemp -d /tmp/navbench-slurm-test.XXXXXX) || skip "cannot make a temporary folder in /tmp"
chmod 755 "$tmp"

# stop.sh TMP ends what the test started: its jobs, the daemons (by the pids they wrote), then any
# job process left (slurmstepd, batch scripts, navbench: they carry this test's SLURM_CONF, and
# the job ones SLURM_JOB_ID), then removes TMP. Run on exit, and by a watchdog in its own session
# if the test itself is killed (-9, e.g. by a ctest timeout).
cat > "$tmp/stop.sh" <<'EOF'
tmp=$1
export SLURM_CONF=$tmp/slurm.conf
pid_of() { [ -f "$tmp/$1.pid" ] && cat "$tmp/$1.pid"; }
if [ -n "$(pid_of slurmctld)" ] && kill -0 "$(pid_of slurmctld)" 2>/dev/null; then
  timeout 10 scancel --quiet --user="$(id -un)" >/dev/null 2>&1
  end=$(( $(date +%s) + 15 ))
  while [ "$(date +%s)" -lt "$end" ] && [ -n "$(timeout 5 squeue -h -o %i 2>/dev/null)" ]; do sleep 0.5; done
fi
for d in slurmd slurmctld munged; do p=$(pid_of $d) && kill "$p" 2>/dev/null; done
for _ in $(seq 1 20); do
  alive=0
  for d in slurmd slurmctld munged; do p=$(pid_of $d) && kill -0 "$p" 2>/dev/null && alive=1; done
  [ $alive -eq 0 ] && break
  sleep 0.5
done
for d in slurmd slurmctld munged; do p=$(pid_of $d) && kill -9 "$p" 2>/dev/null; done
for e in /proc/[0-9]*/environ; do
  p=${e#/proc/}; p=${p%/environ}
  env_of=$({ tr '\0' '\n' < "$e"; } 2>/dev/null) || continue
  printf '%s\n' "$env_of" | grep -qx "SLURM_CONF=$tmp/slurm.conf" || continue
  if printf '%s\n' "$env_of" | grep -q '^SLURM_JOB_ID=' || [ "$(cat "/proc/$p/comm" 2>/dev/null)" = slurmstepd ]; then
    kill -9 "$p" 2>/dev/null
  fi
done
rm -rf "$tmp"
EOF
setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; [ -d "$2" ] && bash "$2/stop.sh" "$2"' _ "$$" "$tmp" \
  </dev/null >/dev/null 2>&1 &
export SLURM_CONF=$tmp/slurm.conf

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ "$rc" -ne 0 ] && [ "$rc" -ne $SKIP ] && [ -d "$tmp/log" ]; then
    for f in "$tmp"/log/*.log; do echo "--- last lines of $f"; tail -n 15 "$f"; done
  fi
  bash "$tmp/stop.sh" "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Every wait below also ends at this deadline, well inside ctest's TIMEOUT (600 s).
budget=420
deadline_all=$(( t_start + budget ))
fails=0
check() { if eval "$2"; then say "ok   $1"; else say "FAIL $1"; fails=$((fails + 1)); fi; }

# A state of a job (JobState of scontrol), or "" when unknown.
job_state() { timeout 10 scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }
# Waits until job $1 has ended (not PENDING/RUNNING/...); prints its state (GONE: Slurm keeps no
# record, as for an array task cancelled before it started); fails after $2 seconds.
wait_ended() {
  local id=$1 limit=$2 s
  local deadline=$(( $(date +%s) + limit ))
  [ "$deadline" -le "$deadline_all" ] || deadline=$deadline_all
  while [ "$(date +%s)" -lt "$deadline" ]; do
    s=$(job_state "$id")
    case "$s" in
      COMPLETED|FAILED|CANCELLED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE) echo "$s"; return 0 ;;
      "") if [ -z "$(timeout 10 squeue -h -j "$id" -o %T 2>/dev/null)" ]; then echo GONE; return 0; fi ;;
    esac
    sleep 0.5
  done
  echo "TIMEDOUT(${s:-unknown})"
  return 1
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# --- munge with a key of our own ---
mkdir -m 700 "$tmp/munge-key"
mkdir -m 755 "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool"
dd if=/dev/urandom of="$tmp/munge-key/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge-key/munge.key"
sock=$tmp/munge/munge.socket
munged --key-file="$tmp/munge-key/munge.key" --socket="$sock" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed" > "$tmp/log/munged.start" 2>&1 ||
  skip "munged does not start here: $(tail -n 1 "$tmp/log/munged.start")"
for _ in $(seq 1 20); do [ -S "$sock" ] && break; sleep 0.25; done
timeout 10 munge -S "$sock" -n 2>/dev/null | timeout 10 unmunge -S "$sock" >/dev/null 2>&1 ||
  skip "munge credentials do not round-trip through munged: $(tail -n 1 "$tmp/log/munged.log" 2>/dev/null)"

# --- slurm.conf: one node (this host), no cgroups (proctrack/linuxproc, task/none), no accounting ---
host=$(hostname -s 2>/dev/null || hostname)
cpus=$(nproc 2>/dev/null || echo 2); [ "$cpus" -gt 2 ] && cpus=2  # the test's tasks run two at a time at most
mem=$(slurmd -C 2>/dev/null | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p'); mem=${mem:-4096}
[ "$mem" -ge 2500 ] || skip "this host reports ${mem} MB of memory; a task asks for 2 GB"
touch "$tmp/plugstack.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=navbenchtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
KillWait=5
MinJobAge=3600
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -i > "$tmp/log/slurmctld.start" 2>&1 || skip "slurmctld does not start here: $(tail -n 2 "$tmp/log/slurmctld.start" "$tmp/log/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
slurmd -N "$host" > "$tmp/log/slurmd.start" 2>&1 || skip "slurmd does not start here: $(tail -n 2 "$tmp/log/slurmd.start" "$tmp/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
state="" end=$(( $(date +%s) + 30 ))
while [ "$(date +%s)" -lt "$end" ]; do
  state=$(timeout 5 sinfo -h -n "$host" -o %T 2>/dev/null)
  [ "$state" = "idle" ] && break
  sleep 0.5
done
[ "$state" = "idle" ] || skip "the node does not come up (state '${state:-none}'): $(grep -h error "$tmp"/log/slurm*.log | grep -v -e pmix -e 'MPI:' | tail -n 2 | tr '\n' ' ')"
# One trivial job shows whether this host can run jobs at all (containers may forbid it).
probe=$(cd "$tmp" && timeout 10 sbatch --parsable --output=/dev/null --wrap true 2>&1) || skip "sbatch refused a trivial job: $probe"
s=$(wait_ended "$probe" 30)
[ "$s" = "COMPLETED" ] || skip "a trivial job does not run here (state $s): $(grep -h error "$tmp"/log/slurmd.log | grep -v -e pmix -e 'MPI:' | tail -n 2 | tr '\n' ' ')"
say "slurm up: node $host, $cpus CPUs, probe job $probe completed"

# --- the sweep: bundled maps, a few representations, all their queries; paths too ---
# Map paths relative to the repository, as in scripts/sweeps/. The repetitions make each unit take
# about a second, so a task (3 units) can be cancelled between its units.
cfg=$tmp/sweep.json
cat > "$cfg" <<'EOF'
{"maps": ["datasets/maps/generated/cave-45-128.map", "datasets/maps/generated/polygons-128.map",
          "datasets/maps/generated/random-20-128.map", "datasets/maps/generated/rooms-16-128.map"],
 "representations": ["grid4", "grid8", "quadtree:merge=0"],
 "smoothing": ["none", "los"], "queries": {"select": "all"}, "repetitions": 300, "seed": 5, "paths": true}
EOF
n=4  # 4 maps x 3 representations = 12 units, 3 per task
# The single-process sweep of the same config, meanwhile (it is waited for before the checks).
(cd "$src" && exec timeout 240 "$nb" sweep "$cfg" --out "$tmp/ref" --jobs 1 --quiet) & ref_pid=$!

out=$tmp/out
mkdir -p "$tmp/elsewhere"
sub=$(cd "$tmp/elsewhere" && NAVBENCH_BIN=$nb timeout 30 "$src/scripts/slurm/submit" ../sweep.json ../out $n --merge-mem=1G 2>&1)
echo "$sub" | sed 's/^/  submit| /'
jid=$(echo "$sub" | sed -n 's/^submitted: array job \([0-9]*\) .*/\1/p')
mid=$(echo "$sub" | sed -n 's/.* and merge job \([0-9]*\) .*/\1/p')
[ -n "$jid" ] && [ -n "$mid" ] || { echo "FAIL: scripts/slurm/submit did not submit"; exit 1; }

# Task 4 is cancelled before it starts (2 CPUs: tasks 1 and 2 run first); task 2 once it has
# finished a unit and is still running.
timeout 10 scancel "${jid}_4"
deadline=$(( $(date +%s) + 90 ))
[ "$deadline" -le "$deadline_all" ] || deadline=$deadline_all
cancelled=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  done2=$(ls "$out/shard-2/units" 2>/dev/null | grep -v -e '\.build\.csv$' -e '\.paths\.csv$' -e '\.unrun\.csv$' | grep -c '\.csv$')
  if [ "$done2" -ge 1 ]; then
    [ "$(job_state "${jid}_2")" = "RUNNING" ] && [ "$done2" -lt 3 ] && timeout 10 scancel "${jid}_2" && cancelled=1
    break
  fi
  sleep 0.1
done
check cancel_task2_midway '[ $cancelled -eq 1 ]'
say "cancelled task 4 (pending) and task 2 after $done2 of its 3 units"
for t in 1 2 3 4; do
  s=$(wait_ended "${jid}_$t" 120)
  say "task $t: $s"
  case $t in
    2) check task2_cancelled '[ "$s" = CANCELLED ]' ;;
    4) check task4_cancelled_before_start '{ [ "$s" = CANCELLED ] || [ "$s" = GONE ]; } && [ ! -e "$out/shard-4" ]' ;;
    *) check "task${t}_completed" '[ "$s" = COMPLETED ]' ;;
  esac
done
s=$(wait_ended "$mid" 60)
check merge_ran_after_cancelled_tasks '[ "$s" = FAILED ]'
mlog=$(ls "$out"/logs/merge."$mid".out 2>/dev/null)
check merge_refused_with_list 'grep -q "REFUSED" "$mlog" && grep -q "^  task 2 " "$mlog" && grep -q "^  task 4 " "$mlog" && [ ! -e "$out/merged/results.csv" ]'
wait "$ref_pid" || { echo "FAIL: the single-process sweep failed"; exit 1; }
nunits=$(ls "$tmp/ref/units" | grep -c -v -e '\.build\.csv$' -e '\.paths\.csv$' -e '\.unrun\.csv$')
say "single-process sweep: $nunits units, $(( $(wc -l < "$tmp/ref/results.csv") - 1 )) rows"
# The listed units are exactly those of the single-process sweep that no shard folder has.
comm -23 <(ls "$tmp/ref/units" | sed -n 's/\.csv$//p' | grep -v -e '\.build$' -e '\.paths$' -e '\.unrun$' | sort) \
         <(ls "$out"/shard-*/units | sed -n 's/\.csv$//p' | grep -v -e '\.build$' -e '\.paths$' -e '\.unrun$' | sort) > "$tmp/expected-missing"
sed -n 's/^    //p' "$out/missing-units.txt" | sort > "$tmp/listed-missing"
check missing_list_exact '[ -s "$tmp/expected-missing" ] && diff "$tmp/expected-missing" "$tmp/listed-missing" >/dev/null'
say "merge $mid refused: $(wc -l < "$tmp/listed-missing") units listed missing"

# Rerun task 4 with a plain sbatch from yet another folder (relative paths, no help from submit:
# the task finds the repository through Slurm's record of the script), then task 2 with submit.
mkdir -p "$tmp/other"
j4=$(cd "$tmp/other" && NAVBENCH_BIN=$nb timeout 30 sbatch --parsable --array=4 --output=../out/logs/shard-%a.%A.out \
       "$src/scripts/slurm/sweep.sbatch" ../sweep.json ../out $n 2>&1)
s=$(wait_ended "$j4" 120)
check rerun_task4_plain_sbatch '[ "$s" = COMPLETED ] && [ -s "$out/logs/shard-4.$j4.out" ]'
sub=$(cd "$tmp/elsewhere" && NAVBENCH_BIN=$nb timeout 30 "$src/scripts/slurm/submit" ../sweep.json ../out $n --array=2 --merge-mem=1G 2>&1)
j2=$(echo "$sub" | sed -n 's/^submitted: array job \([0-9]*\) .*/\1/p')
m2=$(echo "$sub" | sed -n 's/.* and merge job \([0-9]*\) .*/\1/p')
s=$(wait_ended "${j2}_2" 120)
check rerun_task2_submit '[ "$s" = COMPLETED ]'
s=$(wait_ended "$m2" 60)
check merge_completed '[ "$s" = COMPLETED ] && [ -s "$out/merged/results.csv" ] && [ ! -e "$out/missing-units.txt" ]'

# The merged rows equal the single-process sweep's, timing and memory columns aside.
drop() {  # drop FILE COLUMN...: the CSV without the named columns
  local f=$1; shift
  python3 - "$f" "$@" <<'PY'
import csv, sys
rows = csv.reader(open(sys.argv[1], newline=""))
head = next(rows)
keep = [i for i, h in enumerate(head) if h not in sys.argv[2:]]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow([head[i] for i in keep])
for r in rows:
    w.writerow([r[i] for i in keep])
PY
}
timing="locate_us search_us smooth_us first_move_us first20_us max_step_us build_ms memory_bytes"
check merged_rows_equal_single_process 'diff <(drop "$tmp/ref/results.csv" $timing) <(drop "$out/merged/results.csv" $timing) >/dev/null &&
  [ "$(wc -l < "$out/merged/results.csv")" -eq "$(wc -l < "$tmp/ref/results.csv")" ]'
check merged_build_rows_equal 'diff <(drop "$tmp/ref/results.build.csv" $timing) <(drop "$out/merged/results.build.csv" $timing) >/dev/null'
check merged_paths_equal 'diff "$tmp/ref/results.paths.csv" "$out/merged/results.paths.csv" >/dev/null'
check logs_in_results_folder '[ -z "$(find "$tmp/elsewhere" "$tmp/other" -mindepth 1)" ] && ls "$out"/logs/shard-1.*.out "$out"/logs/merge.*.out >/dev/null 2>&1'
# (the whole status first: grep -q on a pipe would stop reading and break units.py's pipe)
check status_all_done '"$src/scripts/slurm/units.py" status "$out" > "$tmp/status.txt" && grep -q "^$nunits of $nunits units done" "$tmp/status.txt"'

say "$fails failed"
[ "$fails" -eq 0 ]
