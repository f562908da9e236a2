#!/usr/bin/env bash
# Call A (one GPU): clusters of 2 validated (GemmGpuTest's new case and the existing ones, every PE
# sharing the GPU under MPS), then a first look, cluster 1 against 2, bf16, four shapes, interleaved.
cd "$(dirname "$0")"
. ./gemm-env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.txt"
timeout 330 bash gpu-run.sh classes --select-method 'org.jshmem.it.gpu.GemmGpuTest#clustersOfTwoValidate' \
  --select-method 'org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas' 2>&1 | tail -n 60
s=8192x8192x8192,8192x8192x4096,4096x4096x4096,3840x3840x4096
for round in 1 2; do
  gemm bf16 1 "$s" "a-c1-r$round"
  gemm bf16 2 "$s" "a-c2-r$round"
done
