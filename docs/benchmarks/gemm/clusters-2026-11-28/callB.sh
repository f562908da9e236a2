#!/usr/bin/env bash
# Call B (one GPU): GemmGpuTest (clusters and the existing cases); then why clusters of 2 ran slower
# in call A: experiment macros (JSHMEM_GEMM_COMPILE_OPTIONS), interleaved, bf16; SASS of both builds.
cd "$(dirname "$0")"
. ./gemm-env.sh
for c in 1 2; do /usr/local/cuda/bin/cuobjdump -sass k$c.cubin > "$out/sass-$c.txt" 2>&1; done
for c in 1 2; do echo "cluster $c: $(grep -c MEMBAR "$out/sass-$c.txt") MEMBAR, $(grep -c FENCE "$out/sass-$c.txt") FENCE"; done
grep -n "MEMBAR\|FENCE\|SYNCS.ARRIVE\|UTMALDG\|UTMA" "$out/sass-2.txt" | head -30
s=8192x8192x8192,3840x3840x4096
for round in 1 2; do
  gemm bf16 1 "$s" "b"
  gemm bf16 2 "$s" "b"
  JSHMEM_GEMM_COMPILE_OPTIONS="-DJGEMM_CLUSTER_MULTICAST=0" gemm bf16 2 "$s" "b"
  JSHMEM_GEMM_COMPILE_OPTIONS="-DJGEMM_CLUSTER_MULTICAST=0 -DJGEMM_CLUSTER_COUPLED=0" gemm bf16 2 "$s" "b"
  JSHMEM_GEMM_COMPILE_OPTIONS="-DJGEMM_CLUSTER_WAIT=0" gemm bf16 2 "$s" "b"
done 2>&1 | grep -E "^==|^none|validated.*FAIL|rror" 
timeout 300 bash gpu-run.sh classes --select-method 'org.jshmem.it.gpu.GemmGpuTest#clustersOfTwoValidate' \
  --select-method 'org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas' > "$out/tests.log" 2>&1
grep -E "✘|tests (successful|failed)|MethodSource|=>" "$out/tests.log" | head -40
