#!/usr/bin/env bash
# Call G (one GPU), after the review's commit: GemmGpuTest's cluster cases, and one anchor shape each way.
cd "$(dirname "$0")"
. ./gemm-env.sh
sig='(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)'
timeout 200 bash gpu-run.sh classes --select-method "org.jshmem.it.gpu.GemmGpuTest#clustersOfTwoValidate$sig" > "$out/tests.log" 2>&1
grep -E "✘|tests (successful|failed|found)" "$out/tests.log" | head
for cl in 1 2; do gemm bf16 $cl 8192x8192x8192,128x8192x8192 "g-c$cl" | grep -E "^none|FAIL|rror"; done
