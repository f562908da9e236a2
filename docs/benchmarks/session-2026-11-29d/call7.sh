#!/usr/bin/env bash
# Session 2026-11-29d, call 7 on one H200: a smoke run of the .devpack exactly as scripts/device/pack.sh now builds it
# (no HIP shim, no JMH jars, no XChart exporters besides PNG): gpu-run.sh gemm (the anchor, the 12 shapes in both
# types validated, the PNG charts) and gemm-fused 2 (the four fused forms on 2 PEs, validated).
set -u
w=/tmp/o7s29d; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
{
OUT=$w/gemm timeout 150 bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) charts=$(ls $w/gemm/*.png 2>/dev/null | wc -l) at ${SECONDS}s"
GEMM_COLLECTIVES="all_gather_gemm all_scatter all_reduce gemm_reduce_scatter" GEMM_SHAPES=4096x4096x4096 \
  OUT=$w/fused timeout 120 bash gpu-run.sh gemm-fused 2 > $w/fused.log 2>&1
echo "fused rc=$? PASS=$(grep -c PASS $w/fused.log) FAIL=$(grep -c FAIL $w/fused.log) at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
