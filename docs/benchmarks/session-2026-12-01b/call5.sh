#!/usr/bin/env bash
# Session 2026-12-01b, call 5 on one H200: gpu-run.sh gemm on this session's build (no GEMM code changed) (the cuBLAS anchor run-gemm.sh, then the
# GEMM alone on its 12 shapes, bf16 and fp16, validated), default settings (no service kernel).
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c5; mkdir -p $w
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; } > $w/machine.txt 2>&1
OUT=$w/gemm timeout 400 bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s"
cat $w/gemm/table.md 2>/dev/null | tail -40
ls /dev/shm > $w/dev-shm-after.txt
cp -r $w "$out/call5"
