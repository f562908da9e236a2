#!/usr/bin/env bash
# Issue 17, 2026-11-30 (thirty-fourth session), on this 2-core machine: the remote transport beside both anchors,
# interleaved. Each round runs, in an order that rotates: the C anchor (scripts/remote/mpi_rma_anchor.c), the Java
# anchor (jshmemrun mpi-anchor: the same MPI calls through FFM, no jshmem), and jshmem's perf on the forced remote
# transport with two shmem-core jars, core-base.jar and core-new.jar in OUT (which builds: the README of
# docs/benchmarks/remote). Bandwidth 4K-4M, latency 8 B-2 KB. Ran as `run.sh OUT ROUNDS`; table.py OUT writes the
# tables.
set -u
cd "$(dirname "$0")/../../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$1 rounds=$2
jar=build/lib/shmem-core-0.1.0-SNAPSHOT.jar
cp "$jar" "$out/core-installed.jar"
bw=(--min 4K --max 4M --factor 4 --reps 5) lat=(--sizes 8,128,2K --reps 5)
run() {   # run WHO ROUND
  case $1 in
    c) mpirun -np 2 build/mpi_rma_anchor "${bw[@]}" > "$out/c-bw-r$2.csv" 2>/dev/null
       mpirun -np 2 build/mpi_rma_anchor --min 8 --max 2K --factor 16 --reps 5 > "$out/c-lat-r$2.csv" 2>/dev/null ;;
    java) bin/jshmemrun -np 2 mpi-anchor "${bw[@]}" --csv "$out/java-bw-r$2.csv" >/dev/null 2>&1
       bin/jshmemrun -np 2 mpi-anchor --min 8 --max 2K --factor 16 --reps 5 --csv "$out/java-lat-r$2.csv" >/dev/null 2>&1 ;;
    base|new) cp "$out/core-$1.jar" "$jar"
       JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_bw get_bw "${bw[@]}" --progress=never \
         --csv "$out/$1-bw-r$2.csv" >/dev/null 2>&1
       JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_latency get_latency "${lat[@]}" \
         --progress=never --csv "$out/$1-lat-r$2.csv" >/dev/null 2>&1 ;;
  esac
}
who=(c java base new)
for r in $(seq 1 "$rounds"); do
  for i in 0 1 2 3; do run "${who[$(( (i + r) % 4 ))]}" "$r"; done
  echo "round $r done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
done
cp "$out/core-installed.jar" "$jar"
