#!/bin/bash
# All measured runs, each under the shared measurement lock.
cd "$(dirname "$0")"
run() { # P BATCH SLICING REP
  flock /work/proto/measure.lock ./run.sh "$1" "$2" "$3" /work/proto/layer-7x8.bin "runs/m-p$1-b$2-$3-r$4" > /dev/null
  echo "done p$1 b$2 $3 r$4 rc=$? $(date +%T)"
}
for rep in 1 2; do
  run 1 0 contig $rep
  for P in 2 4; do
    run $P 0 stride $rep
    run $P 65536 stride $rep
    run $P 0 contig $rep
  done
done
