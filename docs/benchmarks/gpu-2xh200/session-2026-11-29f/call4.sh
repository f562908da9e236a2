#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 4 on 2 x H200, one PE per GPU: the collectives on 2 PEs beside NVSHMEM and
# NCCL / torch symmetric memory (gpu-run.sh scaling 2, to 64 MB), then GemmGpuTest's validations (B k x n and n x k),
# its back-to-back cases, and GpuStreamOpsTest.
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
OUT=$out/scaling SCALING_MAX=64M timeout 330 bash "$here/gpu-run.sh" scaling 2 > $out/scaling.log 2>&1
echo "scaling rc=$? at ${SECONDS}s"
s="java.lang.String"
m="org.jshmem.it.gpu.GemmGpuTest"
OUT=$out/tests timeout 230 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-method "$m#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "$m#transposedBValidatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "$m#thousandCallsBackToBack($s, $s, $s)" > $out/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $out/tests.log | head -20
ls /dev/shm > $out/dev-shm-after.txt
