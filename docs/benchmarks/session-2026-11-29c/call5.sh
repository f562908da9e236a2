#!/usr/bin/env bash
# Session 2026-11-29c, call 5 on one H200: the final build (tiles of the GEMM alone stored by TMA, commit 92a9f2a).
# gpu-run.sh gemm: the anchor run-gemm.sh, then the 12 shapes in bf16 and fp16, validated, beside cuBLAS timed
# alike. Then GemmGpuTest's validations: every fused collective, clusters of 2, the thin tiles, 1000 calls back
# to back.
set -u
here=$(pwd)
w=/tmp/o5s29c; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{
OUT=$w/gemm bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s"
T=org.jshmem.it.gpu.GemmGpuTest
OUT=$w/junit timeout 420 bash gpu-run.sh classes \
  --select-method "$T#validatesAgainstCublas(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "$T#clustersOfTwoValidate(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "$T#skinnyTileValidates(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "$T#thousandCallsBackToBack(java.lang.String, java.lang.String, java.lang.String)" > $w/tests.log 2>&1
echo "tests rc=$? $(grep -E 'tests (successful|failed)' $w/tests.log | tr -s ' ' | tr '\n' ' ') at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
