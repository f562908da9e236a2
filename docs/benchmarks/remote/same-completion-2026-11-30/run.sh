#!/usr/bin/env bash
# Issue 17, 2026-11-30 (thirty-ninth session), on this 2-core machine: the remote transport beside both anchors, each
# case completing its operations as jshmem's does (the anchors' cases as of this session: blocking puts and gets with
# MPI_Win_flush_local after each, non-blocking ones with one flush at the end). Each round runs, in an order that
# rotates: the C anchor (scripts/remote/mpi_rma_anchor.c), the Java anchor (jshmemrun mpi-anchor: the same MPI calls
# through FFM, no jshmem) and jshmem's perf on the forced remote transport (one-sided), the build as installed.
# Bandwidth 4K-4M, latency 8 B-2 KB. Ran as `run.sh OUT ROUNDS`; table.py OUT writes the tables.
set -u
cd "$(dirname "$0")/../../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$1 rounds=$2
bw=(--min 4K --max 4M --factor 4 --reps 5) lat=(--min 8 --max 2K --factor 16 --reps 5)
run() {   # run WHO ROUND
  case $1 in
    c) mpirun -np 2 build/mpi_rma_anchor "${bw[@]}" > "$out/c-bw-r$2.csv" 2>/dev/null
       mpirun -np 2 build/mpi_rma_anchor "${lat[@]}" > "$out/c-lat-r$2.csv" 2>/dev/null ;;
    java) bin/jshmemrun -np 2 mpi-anchor "${bw[@]}" --csv "$out/java-bw-r$2.csv" >/dev/null 2>&1
       bin/jshmemrun -np 2 mpi-anchor "${lat[@]}" --csv "$out/java-lat-r$2.csv" >/dev/null 2>&1 ;;
    jshmem) JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_bw get_bw put_nbi_bw get_nbi_bw \
         "${bw[@]}" --progress=never --csv "$out/jshmem-bw-r$2.csv" >/dev/null 2>&1
       JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_latency get_latency "${lat[@]}" \
         --progress=never --csv "$out/jshmem-lat-r$2.csv" >/dev/null 2>&1 ;;
  esac
}
who=(c java jshmem)
for r in $(seq 1 "$rounds"); do
  for i in 0 1 2; do run "${who[$(( (i + r) % 3 ))]}" "$r"; done
  echo "round $r done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
done
