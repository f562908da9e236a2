#!/usr/bin/env bash
# Call C (one GPU): the cuBLAS anchor, then the GEMM alone with clusters of 1 and of 2 on every anchor shape,
# bf16 and fp16, interleaved, validated; the rings coupled without multicast on two shapes; GemmGpuTest.
cd "$(dirname "$0")"
. ./gemm-env.sh
/usr/local/cuda/bin/cuobjdump -sass k2.cubin 2>&1 | grep -c "MEMBAR.ALL.GPU" | sed 's/^/MEMBAR.ALL.GPU in the cluster kernel: /'
bash anchors/run-gemm.sh > "$out/anchor-cublas.csv" 2>&1
for t in bf16 fp16; do
  gemm $t 1 anchor "c1-$t" | grep -E "^none|FAIL|rror"
  gemm $t 2 anchor "c2-$t" | grep -E "^none|FAIL|rror"
done
s=8192x8192x8192,3840x3840x4096
JSHMEM_GEMM_COMPILE_OPTIONS="-DJGEMM_CLUSTER_MULTICAST=0" gemm bf16 2 "$s" "c2-coupled-no-multicast" | grep -E "^none|FAIL"
cat "$out/anchor-cublas.csv"
sig='(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)'
timeout 330 bash gpu-run.sh classes --select-method "org.jshmem.it.gpu.GemmGpuTest#clustersOfTwoValidate$sig" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas$sig" > "$out/tests.log" 2>&1
grep -E "✘|tests (successful|failed|found)|Could not" "$out/tests.log" | head -20
