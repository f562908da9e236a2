#!/usr/bin/env bash
# Session 2026-11-28, call D (4 x H100) on the final build: gpu-run.sh scaling "4 2" (NVSHMEM, NCCL / torch symm
# anchors, then GpuCollectivesBench at each count), then GpuCollectivesBench on 4 PEs with the members all at once
# (JSHMEM_GPU_REDUCE_ROTATED=0) and one member at a time (the default) again, interleaved.
set -u
here=$(pwd)
w=/tmp/oD; mkdir -p $w/scaling $w/ab
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$w/scaling timeout 420 bash "$here/gpu-run.sh" scaling "4 2" > $w/scaling.log 2>&1; echo "scaling rc=$? at ${SECONDS}s"
grep -E "^reduce_sum_float|^reducescatter" $w/scaling/gpu-coll-4pe.csv | awk -F, '$3>=1048576' | cut -d, -f1,3,5,6
tar czf "$out/callD.tgz" -C $w .
cp="$here/lib/*:$here/mpi.jar"
for rot in 0 1; do
  JSHMEM_GPU_REDUCE_ROTATED=$rot JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 100 mpirun -np 4 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.gpu.GpuCollectivesBench $w/ab/np4-rot$rot.csv 64M 3 > $w/ab/np4-rot$rot.log 2>&1
  echo "np4 rot$rot rc=$? at ${SECONDS}s: $(grep -E '^(reduce_sum|reducescatter)' $w/ab/np4-rot$rot.csv | awk -F, '$3>=4194304' | cut -d, -f1,3,5 | tr '\n' ' ')"
done
tar czf "$out/callD.tgz" -C $w .
