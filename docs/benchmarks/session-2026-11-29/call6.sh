#!/usr/bin/env bash
# Session 2026-11-29, call 6 on one H200 (issue 13): with the 128x64x64 tile chosen for one-row GEMMs that fill a
# wave with it: GemmGpuTest's new cases (skinnyTileValidates), its validations against cuBLAS and its 1000-call
# cases; then the anchor's 12 shapes beside run-gemm.sh and cuBLAS timed alike (gpu-run.sh gemm, validated).
set -u
here=$(pwd)
w=/tmp/o6s29; rm -rf $w; mkdir -p $w/gemm
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
s="java.lang.String"
{
OUT=$w/tests timeout 420 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#skinnyTileValidates(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
tar czf "$out/call6.tgz" -C $w .
OUT=$w/gemm timeout 150 bash "$here/gpu-run.sh" gemm > $w/gemm/run.log 2>&1
echo "gemm rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/gemm/gemm-alone.log) FAIL=$(grep -c FAIL $w/gemm/gemm-alone.log)"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
