#!/bin/bash
# Launched by mpirun once per rank: per-rank peak RSS via /usr/bin/time -v into $RUNDIR.
exec /usr/bin/time -v -o "$RUNDIR/time.rank${OMPI_COMM_WORLD_RANK:-$SLURM_PROCID}" /work/proto/mpi/target/release/mpi_exchange "$@"
