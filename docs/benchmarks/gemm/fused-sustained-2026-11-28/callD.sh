#!/usr/bin/env bash
# Session 2026-11-28 (eighteenth), call D on one H200, the final build (hardware conversions in the fused
# sums): GemmGpuTest's cuBLAS validations and back-to-back cases (every collective, fp16 and bf16, 1-3 PEs
# under MPS; the cluster and across-node cases, whose kernels have no sums, not run), then the GEMM alone
# on one PE beside run-gemm.sh (cuBLAS) in the same call.
set -u
here=$(pwd)
w=/tmp/oD; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
SECONDS=0
s="java.lang.String"
OUT=$w timeout 330 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s)" > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
tar czf "$out/callD.tgz" -C $w .
OUT=$w timeout 210 bash "$here/gpu-run.sh" gemm > $w/gemm-run.log 2>&1; echo "gemm alone rc=$? at ${SECONDS}s"
echo "PASS $(grep -c PASS $w/gemm-alone.log) FAIL $(grep -c FAIL $w/gemm-alone.log)"
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callD.tgz" -C $w .
