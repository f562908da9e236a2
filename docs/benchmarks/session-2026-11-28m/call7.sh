#!/usr/bin/env bash
# Session 2026-11-28 (twenty-third), call 7 on one H200, the final build: the GEMM alone beside run-gemm.sh (cuBLAS)
# in the same run (gpu-run.sh gemm, 24 cases validated), GemmGpuTest's validations and 1000-call cases, and
# GpuCollectivesBench (its host-called calls warmed by 10000 calls) with both PEs on the GPU under MPS, to 1 MB.
set -u
here=$(pwd)
w=/tmp/o7; mkdir -p $w/gemm
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt 2>&1
SECONDS=0
CUDA_VISIBLE_DEVICES=0 OUT=$w/gemm timeout 240 bash "$here/gpu-run.sh" gemm > $w/gemm/run.log 2>&1
echo "gemm rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/gemm/gemm-alone.log) FAIL=$(grep -c FAIL $w/gemm/gemm-alone.log)" | tee $w/summary.txt
tar czf "$out/call7.tgz" -C $w .
OUT=$w timeout 330 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack(java.lang.String, java.lang.String, java.lang.String)" > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s" | tee -a $w/summary.txt
grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20 | tee -a $w/summary.txt
tar czf "$out/call7.tgz" -C $w .
. ./one-gpu.sh
mps_start
CUDA_VISIBLE_DEVICES=0 JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 200 mpirun -np 2 --bind-to none java \
  --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
  org.jshmem.perf.gpu.GpuCollectivesBench $w/coll-1gpu.csv 1M 5 > $w/coll-1gpu.log 2>&1
echo "coll rc=$? at ${SECONDS}s" | tee -a $w/summary.txt
grep -E "blocking|results" $w/coll-1gpu.log | tee -a $w/summary.txt
mps_stop
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
