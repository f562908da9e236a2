#!/usr/bin/env bash
# Session 2026-11-29c, call 6 on one H200: the review's build (GpuKernelExecutor takes each device address once).
# gpu-run.sh gemm (the anchor run-gemm.sh, then the 12 shapes in both types, validated, beside cuBLAS timed alike),
# then the fused forms on 2 PEs sharing the GPU under MPS, validated: all-gather + GEMM (A's own rows through
# their own tensor map), all-scatter, all-reduce, GEMM + reduce-scatter, 4096^3 bf16.
set -u
here=$(pwd)
w=/tmp/o6s29c; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{
OUT=$w/gemm bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s"
GEMM_COLLECTIVES="all_gather_gemm all_scatter all_reduce gemm_reduce_scatter" GEMM_SHAPES=4096x4096x4096 \
  OUT=$w/fused timeout 200 bash gpu-run.sh gemm-fused 2 > $w/fused.log 2>&1
echo "fused rc=$? PASS=$(grep -c PASS $w/fused.log) FAIL=$(grep -c FAIL $w/fused.log) at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
