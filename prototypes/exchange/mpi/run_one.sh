#!/bin/bash
# run_one.sh P RUN ROUTING  -- to be called under: flock /work/proto/measure.lock ./run_one.sh ...
set -u
P=$1; RUN=$2; MODE=$3; ROUND=${ROUND:-2097152}
export RUNDIR=/work/proto/mpi/logs/${SERIES:-A}/P$P-$MODE-r$RUN
rm -rf "$RUNDIR"; mkdir -p "$RUNDIR"
{ date -Is; uptime; top -bn1 | head -15; } > "$RUNDIR/load-before.txt"
( while true; do date -Is; uptime; top -bn1 | head -15 | tail -9; sleep 5; done ) > "$RUNDIR/load-during.txt" 2>&1 &
SAMPLER=$!
if [ "${LAUNCH:-mpirun}" = srun ]; then
  CMD=(srun -n "$P" -O --mpi=pmix /work/proto/mpi/rank-wrapper.sh /work/proto/layer-7x8.bin "$ROUND" "$MODE")
else
  CMD=(mpirun --allow-run-as-root --oversubscribe -n "$P" -x RUNDIR /work/proto/mpi/rank-wrapper.sh /work/proto/layer-7x8.bin "$ROUND" "$MODE")
fi
echo "${CMD[*]}" > "$RUNDIR/cmd.txt"
T0=$(date +%s.%N)
/usr/bin/time -v -o "$RUNDIR/time.mpirun" "${CMD[@]}" > "$RUNDIR/out.txt" 2> "$RUNDIR/err.txt"
RC=$?
T1=$(date +%s.%N)
kill "$SAMPLER"; wait "$SAMPLER" 2>/dev/null
{ date -Is; uptime; } > "$RUNDIR/load-after.txt"
echo "rc=$RC wall_s=$(echo "$T1 - $T0" | bc)" > "$RUNDIR/wall.txt"
cat "$RUNDIR/wall.txt"
