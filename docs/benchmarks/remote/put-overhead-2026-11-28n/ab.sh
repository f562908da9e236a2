#!/usr/bin/env bash
# Issue 17: one-sided put/get at 8-32 KB, the MPI anchor plain and with a progress thread entering MPI every 200 us
# (as jshmem's transport does), and jshmem on the forced remote transport, interleaved over 4 rounds.
set -u
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
o=${1:-/tmp/r17b}
for r in 1 2 3 4; do
  mpirun -np 2 build/mpi_rma_anchor --min 8K --max 32K --factor 2 --reps 5 > $o/round$r-mpi.csv 2>/dev/null
  mpirun -np 2 build/mpi_rma_anchor --min 8K --max 32K --factor 2 --reps 5 --progress-thread 200 > $o/round$r-mpi-progress.csv 2>/dev/null
  JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M timeout 300 bin/jshmemrun -np 2 perf put_bw get_bw --min 8K --max 32K --factor 2 --reps 5 \
    --progress=never --csv $o/round$r-jshmem.csv > /dev/null 2>&1
  echo "round $r done"
done
