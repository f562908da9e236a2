#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 5 on 2 x H200: call 4's tests again with a longer limit (they ran past 230 s
# there): GpuStreamOpsTest, GemmGpuTest's validations (B k x n and n x k) and back-to-back cases, one PE per GPU
# (the 3-PE cases share a GPU under MPS). Logs in one archive.
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o5; mkdir -p $w
SECONDS=0
s="java.lang.String"
m="org.jshmem.it.gpu.GemmGpuTest"
OUT=$w timeout 480 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-method "$m#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "$m#transposedBValidatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "$m#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted)|✘" $w/*.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
