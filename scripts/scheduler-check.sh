#!/usr/bin/env bash
# The blocks of docs/many-machines.md on a real scheduler. Starts munged, slurmctld and slurmd
# for one node named after `hostname -s` (Debian's Slurm 22.05), every file of theirs in a
# temporary directory (SLURM_CONF, munge's key, socket, logs, state, spool), waits until the
# node is idle, and runs the blocks marked `<!-- scheduler-check: NAME -->` in
# docs/many-machines.md, as they are written there: the xargs -P and GNU parallel lines on 6x6;
# the Slurm array script with `sbatch --wait` on 6x6 by start and 5x6 by pair; the merge chained
# to the array; task 2 of 6x7 killed with `scancel --signal=KILL` in the middle of its shards,
# `shards status`, and the task resubmitted as docs/many-machines.md says. Every merged table is
# compared with `knights count`, and every merged store passes `knights verify`. Installs
# slurm-wlm, munge and parallel from Debian when missing. Stops every daemon it started by its
# PID and removes what it wrote, also when a step fails. Where Slurm cannot run (no root, no
# packages), says why in one line: exit 1 under CI=true, 0 with a note elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
clock=$SECONDS

cannot() {
    if [ "${CI:-}" = true ]; then
        echo "scheduler check: FAILED: $1" >&2
        exit 1
    fi
    echo "scheduler check: not run: $1 (under CI=true this fails)" >&2
    exit 0
}

[ "$(id -u)" -eq 0 ] || cannot "Slurm's daemons need root here, and this is user $(id -un)"

WORK=$(mktemp -d)
MUNGED="" SLURMCTLD="" SLURMD=""
cleanup() {
    set +e
    if [ -n "$SLURMCTLD" ]; then
        # Jobs still queued or running (a step that failed) are ended through Slurm itself.
        scancel --full --quiet --user=root >>"$WORK/cleanup.log" 2>&1
        for _ in $(seq 50); do
            [ -z "$(squeue --noheader 2>>"$WORK/cleanup.log")" ] && break
            sleep 0.2
        done
    fi
    for pid in $SLURMD $SLURMCTLD $MUNGED; do
        kill "$pid" 2>>"$WORK/cleanup.log"
    done
    for pid in $SLURMD $SLURMCTLD $MUNGED; do
        wait "$pid" 2>>"$WORK/cleanup.log"
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 1. The packages, from Debian, where they are missing.
missing=""
for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel parallel; do
    [ -n "$(type -P "$tool")" ] || missing="$missing $tool"
done
if [ -n "$missing" ]; then
    [ -n "$(type -P apt-get)" ] || cannot "no$missing, and no apt-get to install slurm-wlm, munge and parallel"
    echo "scheduler check: installing slurm-wlm, munge and parallel (for$missing)" >&2
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq slurm-wlm munge parallel; } >"$WORK/apt.log" 2>&1; then
        cannot "apt-get install slurm-wlm munge parallel failed: $(tail -n 1 "$WORK/apt.log")"
    fi
fi
installed=$((SECONDS - clock))

# The same build as `cargo test` (already there after it: `cargo build` alone would build
# another, without the tests' features), first on the PATH: the jobs inherit it, as the
# docs/many-machines.md says they must.
cargo test --locked --no-run --quiet
export PATH="$ROOT/target/debug:$PATH"
built=$((SECONDS - clock))

# Nothing of a scheduler this script may itself run under, nor the user's store or home.
unset KNIGHTS_WORKERS JOB_COMPLETION_INDEX $(compgen -e | grep '^SLURM_' || true)
export KNIGHTS_DB="$WORK/default.db" XDG_DATA_HOME="$WORK/xdg" HOME="$WORK/home" PARALLEL_HOME="$WORK/parallel"
mkdir -p "$HOME" "$PARALLEL_HOME"
: >"$WORK/empty"

# 2. munged, with a key, socket, seed, log and PID file of its own. munged checks that every
# directory above its socket can be searched by all.
chmod 711 "$WORK"
mkdir -p "$WORK/munge" "$WORK/slurm/state" "$WORK/slurm/spool" "$WORK/jobs"
mungekey --create --keyfile="$WORK/munge/munge.key" >"$WORK/munge/mungekey.log" 2>&1
munged --foreground --key-file="$WORK/munge/munge.key" --socket="$WORK/munge/socket" \
    --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" \
    --seed-file="$WORK/munge/munged.seed" >"$WORK/munge/munged.out" 2>&1 &
MUNGED=$!
for _ in $(seq 50); do
    [ -S "$WORK/munge/socket" ] && break
    sleep 0.1
done
[ -S "$WORK/munge/socket" ] || cannot "munged did not start: $(tail -n 1 "$WORK/munge/munged.out")"

# 3. slurmctld and slurmd, one node, on ports chosen at random (another Slurm on this machine
# keeps its own). The node is declared with at least 8 CPUs (config_overrides: Slurm takes the
# configuration's word for it), so that the 4 tasks of the array in docs/many-machines.md (2 CPUs
# each) run at once, as on four machines, rather than one after the other on two cores.
NODE=$(hostname -s)
CPUS=$(nproc)
[ "$CPUS" -ge 8 ] || CPUS=8
PORT=$((20000 + RANDOM % 20000))
cat >"$WORK/slurm/slurm.conf" <<EOF
ClusterName=knightscheck
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/socket
CredType=cred/munge
StateSaveLocation=$WORK/slurm/state
SlurmdSpoolDir=$WORK/slurm/spool
SlurmctldPidFile=$WORK/slurm/slurmctld.pid
SlurmdPidFile=$WORK/slurm/slurmd.pid
SlurmctldLogFile=$WORK/slurm/slurmctld.log
SlurmdLogFile=$WORK/slurm/slurmd.log
PlugStackConfig=$WORK/slurm/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmdParameters=config_overrides
MailProg=/bin/true
MinJobAge=600
KillWait=2
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=check Nodes=$NODE Default=YES MaxTime=10 State=UP
EOF
: >"$WORK/slurm/plugstack.conf"
export SLURM_CONF="$WORK/slurm/slurm.conf"
slurmctld -D -c >"$WORK/slurm/slurmctld.out" 2>&1 &
SLURMCTLD=$!
slurmd -D -N "$NODE" >"$WORK/slurm/slurmd.out" 2>&1 &
SLURMD=$!
state=""
for _ in $(seq 150); do
    state=$(sinfo --noheader --nodes="$NODE" --format=%T 2>>"$WORK/slurm/sinfo.log" || true)
    [ "$state" = idle ] && break
    kill -0 "$SLURMCTLD" 2>>"$WORK/slurm/sinfo.log" || break
    kill -0 "$SLURMD" 2>>"$WORK/slurm/sinfo.log" || break
    sleep 0.2
done
if [ "$state" != idle ]; then
    tail -n 5 "$WORK/slurm/slurmctld.out" "$WORK/slurm/slurmd.out" >&2
    cannot "the node $NODE is not idle after 30 s (sinfo: '${state:-nothing}')"
fi
started=$((SECONDS - clock))
echo "scheduler check: Slurm $(sinfo --version | cut -d' ' -f2) up, node $NODE idle with $CPUS CPUs ($(nproc) here), in $((started - built)) s"

# From here on a check that fails is counted, and the script goes on to the next.
passed=0
failed=0
ok() {
    passed=$((passed + 1))
    echo "ok: $1"
}
bad() {
    failed=$((failed + 1))
    echo "FAILED: $1"
}
# `expect WHAT COMMAND...`: ok or bad as the command succeeds; its status.
expect() {
    local what=$1
    shift
    if "$@"; then
        ok "$what"
    else
        bad "$what"
        return 1
    fi
}

# The block of docs/many-machines.md marked `<!-- scheduler-check: NAME -->`: the fenced lines
# after it.
block() {
    local text
    text=$(awk -v mark="<!-- scheduler-check: $1 -->" '
        $0 == mark { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }' docs/many-machines.md)
    if [ -z "$text" ]; then
        echo "docs/many-machines.md has no block marked <!-- scheduler-check: $1 -->" >&2
        return 1
    fi
    printf '%s\n' "$text"
}

# Runs shell text in directory $1 (under $WORK/jobs), as its reader would in a shell,
# showing each command; its output goes to out and err there (appended). Fails as the text does,
# or after two minutes (what it left queued is cancelled at the end).
run_in() {
    local dir="$WORK/jobs/$1" text=$2
    mkdir -p "$dir"
    printf '%s\n' "$text" | sed "s|^|  [$1] \$ |"
    (cd "$dir" && timeout 120 sh -e -c "$text" <"$WORK/empty" >>out 2>>err)
}

# The table that `shards merge` printed last (in $1/out, or the file $4 there) against
# `knights count ROWS COLS`; and `verify` on the merged store.
same_as_count() {
    local dir="$WORK/jobs/$1" rows=$2 cols=$3 file=${4:-out}
    knights --no-cache count "$rows" "$cols" >"$dir/count"
    tail -n "$(wc -l <"$dir/count")" "$dir/$file" >"$dir/merged"
    if cmp -s "$dir/count" "$dir/merged"; then
        ok "$1: the merged table is \`knights count $rows $cols\`"
    else
        bad "$1: the merged table differs from \`knights count $rows $cols\`: $(diff "$dir/count" "$dir/merged" | head -n 4 | tr '\n' ' ')"
    fi
    if (cd "$dir" && knights --db answers.db verify >verify.out 2>&1); then
        ok "$1: knights --db answers.db verify"
    else
        bad "$1: verify: $(tail -n 1 "$dir/verify.out")"
    fi
}

# One step: its commands, and what it printed where it failed.
step() {
    local name=$1 began=$SECONDS
    shift
    if "$@"; then
        echo "  [$name] $((SECONDS - began)) s"
        return 0
    fi
    bad "$name: stopped at a command that failed"
    for f in err out; do
        [ -s "$WORK/jobs/$name/$f" ] && tail -n 5 "$WORK/jobs/$name/$f" | sed "s|^|    $f: |"
    done
    for f in "$WORK/jobs/$name"/slurm-*.out; do
        [ -s "$f" ] && tail -n 3 "$f" | sed "s|^|    $(basename "$f"): |"
    done
    return 1
}

# Waits until nothing is left in the queue (only this script's jobs are there), at most $1 s.
wait_for_queue() {
    local limit=$1 start=$SECONDS
    while [ $((SECONDS - start)) -lt "$limit" ]; do
        [ -z "$(squeue --noheader 2>>"$WORK/squeue.log")" ] && return 0
        sleep 0.5
    done
    echo "jobs still queued after $limit s: $(squeue --noheader | head -n 3 | tr '\n' ' ')" >&2
    return 1
}

plan_line() { block slurm-wait | grep 'shards plan 6 6'; }
merge_line() { block slurm-wait | grep 'shards merge'; }

# 4. One host: the xargs -P block, then the GNU parallel line in place of its xargs line.
one_host() {
    run_in one-host "$(block one-host)" &&
        expect "one-host: xargs -P, status says 6 of 6 shards done" \
            grep -q '6 of 6 shards done' "$WORK/jobs/one-host/out" &&
        same_as_count one-host 6 6
}
step one-host one_host || true

parallel_line() {
    local host text
    host=$(block one-host) || return 1
    text=$(
        printf '%s\n' "$host" | grep 'shards plan'
        block parallel
        printf '%s\n' "$host" | grep -v -e 'shards plan' -e 'xargs'
    ) || return 1
    run_in parallel "$text" &&
        expect "parallel: GNU parallel, status says 6 of 6 shards done" \
            grep -q '6 of 6 shards done' "$WORK/jobs/parallel/out" &&
        same_as_count parallel 6 6
}
step parallel parallel_line || true

# 5. The Slurm array script with sbatch --wait: 6x6 by start, as written; 5x6 by pair, its plan
# line changed as docs/many-machines.md says.
slurm_wait() {
    local name=$1 rows=$2 cols=$3 text
    mkdir -p "$WORK/jobs/$name"
    block slurm-script >"$WORK/jobs/$name/shards.sh" || return 1
    text=$(block slurm-wait) || return 1
    if [ "$name" = slurm-5x6-pair ]; then
        text=$(printf '%s\n' "$text" | sed 's/shards plan 6 6 -o/shards plan 5 6 --by pair -o/')
        printf '%s\n' "$text" | grep -q 'shards plan 5 6 --by pair' || return 1
    fi
    run_in "$name" "$text" &&
        ok "$name: sbatch --wait, $(find "$WORK/jobs/$name/results" -name 'w*.db' | wc -l) stores" &&
        same_as_count "$name" "$rows" "$cols"
}
step slurm-6x6 slurm_wait slurm-6x6 6 6 || true
step slurm-5x6-pair slurm_wait slurm-5x6-pair 5 6 || true

# 6. The merge chained to the array (--dependency=afterok), waited for here through squeue.
slurm_chain() {
    local dir="$WORK/jobs/slurm-chain"
    mkdir -p "$dir"
    block slurm-script >"$dir/shards.sh" || return 1
    run_in slurm-chain "$(block slurm-chain)" || return 1
    wait_for_queue 90 || return 1
    expect "slurm-chain: the merge ran after the array (merge.out)" \
        grep -q '^merged 6 shards' "$dir/merge.out" &&
        same_as_count slurm-chain 6 6 merge.out
}
step slurm-chain slurm_chain || true

# 7. A task killed in the middle of its shards and resubmitted: 6x7 (12 shards, 3 for each of
# 4 workers, some seconds each), task 2 killed once it has stored one of its shards.
slurm_retry() {
    local name=slurm-retry dir="$WORK/jobs/slurm-retry" job text status_line retry_line
    mkdir -p "$dir"
    block slurm-script >"$dir/shards.sh" || return 1
    run_in "$name" "$(plan_line | sed 's/shards plan 6 6 -o/shards plan 6 7 -o/')" || return 1
    job=$(cd "$dir" && sbatch --parsable shards.sh)
    echo "  [$name] (array job $job; task 2 killed once it has stored a shard)"
    local start=$SECONDS done=""
    while [ $((SECONDS - start)) -lt 90 ]; do
        if [ -e "$dir/results/w2.db" ]; then
            done=$(cd "$dir" && knights shards status plan.jsonl --from results/w2.db 2>>status.log |
                sed -n 's/^6x7 by start: \([0-9]*\) of 12 shards done.*/\1/p' || true)
            [ "${done:-0}" -ge 1 ] && break
        fi
        sleep 0.2
    done
    [ "${done:-0}" -ge 1 ] || { echo "task 2 stored no shard in 90 s" >&2; return 1; }
    echo "  [$name] \$ scancel --signal=KILL ${job}_2"
    scancel --signal=KILL "${job}_2"
    wait_for_queue 90 || return 1
    expect "$name: task 2 said it is worker 2 of 4, from Slurm's variables" \
        grep -q 'shards run: worker 2 of 4 (SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=4)' \
        "$dir/slurm-${job}_2.out"
    if grep -q '^worker 2 of 4:' "$dir/slurm-${job}_2.out"; then
        bad "$name: task 2 finished before it was killed"
        return 1
    fi

    status_line=$(block slurm-retry | grep 'shards status')
    retry_line=$(block slurm-retry | grep 'sbatch')
    local code=0
    run_in "$name" "$status_line" || code=$?
    # 1 while shards are missing (0 before `shards status` said so by its exit).
    if [ "$code" -le 1 ] && grep -q '^missing: ' "$dir/out"; then
        ok "$name: shards status names the killed task's shards as missing (exit $code)"
    else
        bad "$name: shards status after the kill: exit $code, $(tail -n 1 "$dir/out")"
    fi

    # Without the number of workers, the resubmitted task refuses to start.
    local alone="${retry_line#KNIGHTS_WORKERS=4 }"
    if run_in "$name-alone" "cp ../slurm-retry/shards.sh ../slurm-retry/plan.jsonl . && $alone"; then
        bad "$name: resubmitted without KNIGHTS_WORKERS, task 2 did not refuse"
    else
        expect "$name: resubmitted without KNIGHTS_WORKERS, task 2 refuses and names the array" \
            grep -q 'the Slurm job array is 2-2 (1 task), not 0-(N-1)' "$WORK/jobs/$name-alone"/slurm-*_2.out
    fi

    run_in "$name" "$retry_line" || return 1
    local resumed
    resumed=$(cd "$dir" && grep -h '^worker 2 of 4:' slurm-*_2.out | tail -n 1)
    case "$resumed" in
    *", 0 already stored"* | "")
        bad "$name: the resubmitted task did not go on from its store: '$resumed'"
        ;;
    *) ok "$name: resubmitted, task 2 went on from its store ($resumed)" ;;
    esac
    run_in "$name" "$(merge_line)" && same_as_count "$name" 6 7
}
step slurm-retry slurm_retry || true

echo "scheduler check: $passed passed, $failed failed, in $((SECONDS - clock)) s ($installed s installing, $((built - installed)) s building, $((started - built)) s starting Slurm)"
[ "$failed" -eq 0 ]
