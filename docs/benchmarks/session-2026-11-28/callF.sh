#!/usr/bin/env bash
# Session 2026-11-28, call F on 2 x H200: bench-gpu.sh with this session's final build (NVSHMEM anchor + jshmem, same run).
set -u
here=$(pwd)
w=/tmp/oF; mkdir -p $w/bench
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
OUT=$w/bench timeout 540 bash "$here/bench-gpu.sh" > $w/bench-gpu.log 2>&1; echo "bench rc=$? at ${SECONDS}s"
cat $w/bench/summary.txt
tar czf "$out/callF.tgz" -C $w .
