#!/usr/bin/env bash
# Session 2026-11-30c (thirty-fifth), call 2 on 2 x H200, this session's build (no gemm-ext or library code changed
# since c8f3f27): gpu-run.sh tp. The PyTorch anchor, the all-scatter's shard alone, then issue 19's fused forms
# (all-scatter fp16 8192^3, all-gather + GEMM fp16 8192x11008x4096, GEMM + reduce-scatter bf16 8192x8192x4096,
# all-reduce bf16 8192^3), validated, then 100 back-to-back calls validated again; then GpuCollectivesBench to 64 MB.
# One PE per GPU. Run as cd .devpack && bash on-device.sh bash call2.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$out/tp timeout 560 bash "$here/gpu-run.sh" tp > $out/tp-console.log 2>&1
echo "tp rc=$? at ${SECONDS}s"
ls /dev/shm > $out/dev-shm-after.txt
grep -hE "PASS|FAIL|mismatch" $out/tp/tp.log | head -30
grep -hiE "ms|TFLOP" $out/tp/torch-anchor.log | tail -20
cat $out/tp/tp-shard-alone.csv $out/tp/tp-fused.csv
grep -E "reduce_scatter|reduce_sum|fcollect" $out/tp/tp-coll.csv | grep -E ",(67108864|33554432)," | head
