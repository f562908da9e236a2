#!/usr/bin/env bash
# Issue 17, 2026-11-29 (twenty-sixth session), on this session's 2-core machine: the README's first table again,
# interleaved over five rounds (anchor, jshmem bandwidth, jshmem latency), on the build as committed.
set -u
cd "$(dirname "$0")/../../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
o=${1:-docs/benchmarks/remote/series-2026-11-29b}
mpicc -O2 -pthread -o build/mpi_rma_anchor scripts/remote/mpi_rma_anchor.c
for r in 1 2 3 4 5; do
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 4M --factor 4 --reps 5 > $o/mpi-r$r.csv 2>/dev/null
  JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_bw get_bw --min 8K --max 2M --factor 4 \
    --reps 5 --progress=never --csv $o/jshmem-bw-r$r.csv > /dev/null 2>&1
  JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_latency get_latency --sizes 8,128,2K \
    --reps 5 --progress=never --csv $o/jshmem-lat-r$r.csv > /dev/null 2>&1
  echo "round $r done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
done
