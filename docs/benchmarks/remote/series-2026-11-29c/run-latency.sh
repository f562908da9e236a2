#!/usr/bin/env bash
# Issue 17, 2026-11-29 (twenty-seventh session): put_latency and get_latency alone (put + quiet, get), before and after,
# beside the MPI anchor, interleaved over twelve rounds (before first in odd rounds, after first in even ones: the
# first series, before always first, found the unchanged get slower in the second place), on this session's 2-core
# machine:
#   run-latency.sh BEFORE.jar AFTER.jar
set -u
cd "$(dirname "$0")/../../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
o=docs/benchmarks/remote/series-2026-11-29c/${OUT_DIR:-latency}
mkdir -p $o
jar=build/lib/shmem-core-0.1.0-SNAPSHOT.jar
for r in $(seq 1 12); do
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 2K --factor 16 --reps 5 > $o/mpi-r$r.csv 2>/dev/null
  order="before after"; [ $((r % 2)) = 0 ] && order="after before"
  for v in $order; do
    cp "$([ $v = before ] && echo "$1" || echo "$2")" $jar
    JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_latency get_latency --sizes 8,128,2K \
      --reps 5 --progress=never --csv $o/$v-lat-r$r.csv > /dev/null 2>&1
  done
  echo "round $r done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
done
cp "$2" $jar
