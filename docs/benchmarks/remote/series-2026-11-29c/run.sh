#!/usr/bin/env bash
# Issue 17, 2026-11-29 (twenty-seventh session), on this session's 2-core machine: a quiet with no non-blocking
# operation outstanding makes no MPI call (after) against the build before (before), beside the MPI anchor,
# interleaved over five rounds. The two shmem-core jars are swapped into build/lib between runs:
#   run.sh BEFORE.jar AFTER.jar
set -u
cd "$(dirname "$0")/../../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
o=docs/benchmarks/remote/series-2026-11-29c
jar=build/lib/shmem-core-0.1.0-SNAPSHOT.jar
mpicc -O2 -pthread -o build/mpi_rma_anchor scripts/remote/mpi_rma_anchor.c
for r in 1 2 3 4 5; do
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 32K --factor 4 --reps 5 > $o/mpi-r$r.csv 2>/dev/null
  for v in before after; do
    cp "$([ $v = before ] && echo "$1" || echo "$2")" $jar
    JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_latency get_latency --sizes 8,128,2K \
      --reps 5 --progress=never --csv $o/$v-lat-r$r.csv > /dev/null 2>&1
    JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_bw get_bw --sizes 8K,32K \
      --reps 5 --progress=never --csv $o/$v-bw-r$r.csv > /dev/null 2>&1
  done
  echo "round $r done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
done
cp "$2" $jar
