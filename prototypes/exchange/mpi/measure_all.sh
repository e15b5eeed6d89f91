#!/bin/bash
# Each measured run takes the shared lock on its own.
cd /work/proto/mpi
flock /work/proto/measure.lock cat /work/proto/layer-7x8.bin > /dev/null   # warm page cache
for RUN in 1 2; do
  for spec in "1 spec" "2 spec" "2 salted" "4 spec" "4 salted"; do
    set -- $spec
    echo "$(date -Is) P=$1 mode=$2 run=$RUN waiting for lock"
    flock /work/proto/measure.lock ./run_one.sh "$1" "$RUN" "$2"
  done
done
echo done
