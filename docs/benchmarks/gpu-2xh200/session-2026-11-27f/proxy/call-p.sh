#!/usr/bin/env bash
# Session 2026-11-27f: perf's raw ping-pong refuses a PE of another node (it used to wait forever); the proxied p ping-pong.
set -u
here=$(pwd)
w=/tmp/oG; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
for ops in "raw" "p"; do
  JSHMEM_TRANSPORT=remote JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=256M timeout 90 mpirun -np 2 --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.PerfMain p_latency --ops $ops --form device --reps 3 --progress never --csv "$w/proxy-p-$ops.csv" > "$w/proxy-p-$ops.log" 2>&1
  echo "$ops rc=$? $(grep -E '^jshmem,' $w/proxy-p-$ops.csv 2>/dev/null | cut -d, -f2,4,5,10,11 | tr '\n' ' ')"
  tail -5 "$w/proxy-p-$ops.log"
done
tar czf "$out/callG.tgz" -C $w .
