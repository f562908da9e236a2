#!/usr/bin/env bash
# Session 2026-11-29 (thirty-second), call 3b on 2 x H200: is the C7510 note of this machine's ptxas ("wgmma
# serialized ... at a function call") about the Hopper kernel's main loop? The kernel (BN 256, 3 stages, bf16)
# compiled by the GPU machine's nvcc, its SASS's HGMMA and WARPGROUP lines kept (call3b/hgmma-lines.txt).
# The kernel sources and headers were carried as .devpack/sass-src (shmem-device/include, gemm-ext's kernels).
set -u
out=${OUT:-/tmp/out}; mkdir -p $out
nvcc=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1); cuobj=$(dirname $nvcc)/cuobjdump
k=sass-src/kernels
$nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I sass-src/include -I $k -DJGEMM_DTYPE=1 -DJGEMM_BM=128 \
  -DJGEMM_BN=256 -DJGEMM_BK=64 -DJGEMM_STAGES=3 -DJGEMM_THREADS=384 -DJGEMM_CLUSTER=1 -Xptxas -v -cubin \
  -o /tmp/k.cubin $k/jgemm_sm90.cu > $out/ptxas.txt 2>&1
cat $out/ptxas.txt
$cuobj -sass /tmp/k.cubin > $out/k.sass 2>&1
echo "HGMMA count: $(grep -c HGMMA $out/k.sass)"; grep -n "CALL\|RET\b" $out/k.sass | head -20
grep -n "HGMMA\|WARPGROUP\|WARPSYNC" $out/k.sass | head -80
