#!/usr/bin/env bash
# Issue 17, 2026-11-30 (thirty-ninth session): the same three programs as run.sh at 4-64 KB only, in short rounds
# (about a minute), so that a slow phase of this machine (the C anchor alone ran 30% slower for 90 s at a time) hits
# all three programs of a round alike more often. Warm-up: WARMUP_MS a case for both Java programs, by default
# 1000 (both programs' default); short-base/ and short-new/ ran with WARMUP_MS=300, short-default/ with the
# default. Ran as `[WARMUP_MS=N] run-short.sh OUT ROUNDS`; table.py OUT writes the tables.
set -u
cd "$(dirname "$0")/../../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$1 rounds=$2 warmup=${WARMUP_MS:-1000}
sz=(--min 4K --max 64K --factor 4 --reps 5)
run() {   # run WHO ROUND
  case $1 in
    c) mpirun -np 2 build/mpi_rma_anchor "${sz[@]}" > "$out/c-bw-r$2.csv" 2>/dev/null ;;
    java) bin/jshmemrun -np 2 mpi-anchor "${sz[@]}" --warmup-ms $warmup --csv "$out/java-bw-r$2.csv" >/dev/null 2>&1 ;;
    jshmem) JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_bw get_bw put_nbi_bw get_nbi_bw \
         put_latency get_latency "${sz[@]}" --warmup-ms $warmup --progress=never --csv "$out/jshmem-bw-r$2.csv" >/dev/null 2>&1 ;;
  esac
}
who=(c java jshmem)
for r in $(seq 1 "$rounds"); do
  for i in 0 1 2; do run "${who[$(( (i + r) % 3 ))]}" "$r"; done
  echo "round $r done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
done
