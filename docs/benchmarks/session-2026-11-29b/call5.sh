#!/usr/bin/env bash
# Session 2026-11-29b, call 5 on one H200: gpu-run.sh gemm twice on a machine that ran nothing before (call 4 ran
# it after five minutes of tests): the anchor run-gemm.sh, then the 12 shapes in bf16 and fp16, validated, beside
# cuBLAS timed alike; the committed build of call 4.
set -u
w=/tmp/o5s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
for r in 1 2; do
  OUT=$w/gemm$r bash gpu-run.sh gemm > $w/gemm$r.log 2>&1
  echo "gemm round $r rc=$? PASS=$(grep -c PASS $w/gemm$r.log) FAIL=$(grep -c FAIL $w/gemm$r.log) at ${SECONDS}s" | tee -a $w/summary.txt
done
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
