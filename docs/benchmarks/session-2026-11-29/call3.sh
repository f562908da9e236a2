#!/usr/bin/env bash
# Session 2026-11-29, call 3 on one H200 (issue 13): the GEMM alone beside run-gemm.sh (cuBLAS, the anchor)
# and beside cuBLAS timed alike (--reference), every anchor shape, bf16 and fp16, validated: gpu-run.sh gemm,
# two rounds.
set -u
here=$(pwd)
w=/tmp/o3s29; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
SECONDS=0
for r in 1 2; do
  mkdir -p $w/round$r
  OUT=$w/round$r timeout 280 bash "$here/gpu-run.sh" gemm > $w/round$r/run.log 2>&1
  echo "round $r rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/round$r/gemm-alone.log) FAIL=$(grep -c FAIL $w/round$r/gemm-alone.log)" | tee -a $w/summary.txt
  tar czf "$out/call3.tgz" -C $w .
done
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
