#!/usr/bin/env bash
# Session 2026-11-28, call E (same 4-GPU machine as D): GpuCollectivesBench with the members all at once
# (JSHMEM_GPU_REDUCE_ROTATED_MIN=0) and one at a time (the default, from 4 MB), interleaved, 2 rounds on 4 PEs, 1 on 3.
set -u
here=$(pwd)
w=/tmp/oE; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
cp="$here/lib/*:$here/mpi.jar"
run() { # np min round
  JSHMEM_GPU_REDUCE_ROTATED_MIN=$2 JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 100 mpirun -np $1 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.gpu.GpuCollectivesBench $w/np$1-min$2-$3.csv 64M 3 > $w/np$1-min$2-$3.log 2>&1
  echo "np$1 min=$2 #$3 rc=$? at ${SECONDS}s: $(grep -E '^(reduce_sum|reducescatter)' $w/np$1-min$2-$3.csv | awk -F, '$3>=1048576' | cut -d, -f1,3,5 | tr '\n' ' ')"
}
for r in 1 2; do run 4 0 $r; run 4 4M $r; done
run 3 0 1; run 3 4M 1
tar czf "$out/callE.tgz" -C $w .
