#!/bin/bash
# Usage: run.sh P [BATCH] [SLICING] [FILE] [OUTDIR]
#   SLICING: contig (default, records [i*N/P,(i+1)*N/P)) or stride (records j with j % P == i)
# Launches P timely processes (one worker each) on localhost, waits for all of them.
#   BATCH: records per exchange message, 0 = timely's default Exchange pact (8 KiB = 512 records).
# Per-process output: OUTDIR/out.<i>, /usr/bin/time -v output: OUTDIR/time.<i>.
# Measured runs are wrapped by the caller in: flock /work/proto/measure.lock ./run.sh ...
set -u
P=${1:?usage: run.sh P [BATCH] [SLICING] [FILE] [OUTDIR]}
BATCH=${2:-0}
SLICING=${3:-contig}
FILE=${4:-/work/proto/layer-7x8.bin}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${5:-$HERE/runs/p${P}-b${BATCH}-${SLICING}-$(date +%H%M%S)}
BIN=$HERE/target/release/timely_layer
BASE_PORT=${BASE_PORT:-24100}
mkdir -p "$OUT"
HOSTS=$OUT/hosts.txt
: > "$HOSTS"
for ((i = 0; i < P; i++)); do echo "127.0.0.1:$((BASE_PORT + i))" >> "$HOSTS"; done

lo_bytes() { awk '/^ *lo:/ { sub(/^ *lo:/, ""); print $1, $9 }' /proc/net/dev; }

{ echo "== before"; uptime; top -bn1 | head -15; } > "$OUT/load.log"
# Sample the load every 2 s while the run lasts.
( while true; do sleep 2; { echo "== during $(date +%T)"; uptime; top -bn1 | head -15; } >> "$OUT/load.log"; done ) &
SAMPLER=$!

LO0=$(lo_bytes)
T0=$(date +%s.%N)
PIDS=()
for ((i = 0; i < P; i++)); do
  if [ "$P" -gt 1 ]; then
    /usr/bin/time -v -o "$OUT/time.$i" "$BIN" "$FILE" "$BATCH" "$SLICING" -n "$P" -p "$i" -h "$HOSTS" > "$OUT/out.$i" 2>&1 &
  else
    /usr/bin/time -v -o "$OUT/time.$i" "$BIN" "$FILE" "$BATCH" "$SLICING" > "$OUT/out.$i" 2>&1 &
  fi
  PIDS+=($!)
done
RC=0
for pid in "${PIDS[@]}"; do wait "$pid" || RC=1; done
T1=$(date +%s.%N)
LO1=$(lo_bytes)
kill "$SAMPLER" 2>/dev/null; wait "$SAMPLER" 2>/dev/null

read -r RX0 TX0 <<< "$LO0"; read -r RX1 TX1 <<< "$LO1"
{
  echo "P=$P batch=$BATCH slicing=$SLICING file=$FILE rc=$RC"
  echo "wall_s=$(echo "$T1 - $T0" | bc)"
  echo "lo_rx_bytes=$((RX1 - RX0)) lo_tx_bytes=$((TX1 - TX0))"
  for ((i = 0; i < P; i++)); do
    grep RESULT "$OUT/out.$i"
    echo "process=$i maxrss_kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$OUT/time.$i") elapsed=$(awk -F'): ' '/Elapsed/ {print $2}' "$OUT/time.$i")"
  done
} | tee "$OUT/summary.txt"
exit $RC
