#!/usr/bin/env bash
# Call E (one GPU), the session's final build: the cuBLAS anchor and the GEMM alone (automatic choices) on
# every anchor shape, bf16 and fp16, validated; 128x8192x4096 (64 iterations, the split rule's edge)
# automatic against data-parallel beside cuBLAS; then GemmGpuTest whole, every PE sharing the GPU under MPS.
cd "$(dirname "$0")"
. ./gemm-env.sh
bash anchors/run-gemm.sh > "$out/anchor-cublas.csv" 2>&1
for t in bf16 fp16; do gemm $t 0 anchor "e-$t" | grep -E "^none|FAIL|rror"; done
for round in 1 2; do
  for split in auto data_parallel; do
    gemm bf16 0 128x8192x4096,128x8192x8192 "e-edge" --split $split --reference | grep -E "^none|FAIL|rror"
  done
done
cat "$out/anchor-cublas.csv"
timeout 420 bash gpu-run.sh classes --select-class org.jshmem.it.gpu.GemmGpuTest > "$out/tests.log" 2>&1
grep -E "✘|tests (successful|failed|found)" "$out/tests.log" | head -20
