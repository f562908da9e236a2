#!/usr/bin/env bash
# Session 2026-11-27g, call J on 2 x H200: the final shmem-core jar (Shim's shared call helpers): the API suite and the
# on-stream tests (event record, stream waits and writes), then one bench row group (device put_bw and barrier).
set -u
here=$(pwd)
w=/tmp/oJ; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$w timeout 150 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.ApiTest \
  --select-class org.jshmem.it.gpu.GpuStreamOpsTest > $w/tests.log 2>&1
echo "tests rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
tar czf "$out/callJ.tgz" -C $w .
