#!/usr/bin/env bash
# Session 2026-11-27c, 2 x H200, last call: the GEMM alone beside cuBLAS (run-gemm.sh, validated,
# on GPU 0), GemmGpuTest, then the tensor-parallel cases beside the PyTorch anchor (gpu-run.sh tp).
set -u
w=/tmp/o; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/machine.txt 2>&1; cat $w/machine.txt
echo "== 1. gemm alone + cuBLAS anchor (GPU 0)"
SECONDS=0
CUDA_VISIBLE_DEVICES=0 OUT=$w/gemm timeout 230 bash gpu-run.sh gemm > $w/gemm.log 2>&1; echo "gemm rc=$? in ${SECONDS}s"
grep -cE "PASS|ok" $w/gemm.log; tail -4 $w/gemm.log
tar czf "$out/call13.tgz" -C $w .
echo "== 2. GemmGpuTest (2 GPUs, MPS)"
SECONDS=0
OUT=$w/gt timeout 130 bash gpu-run.sh classes --select-class org.jshmem.it.gpu.GemmGpuTest > $w/gemm-gpu-test.log 2>&1
echo "GemmGpuTest rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)" $w/gemm-gpu-test.log
tar czf "$out/call13.tgz" -C $w .
echo "== 3. tp"
SECONDS=0
OUT=$w/tp timeout 200 bash gpu-run.sh tp > $w/tp.log 2>&1; echo "tp rc=$? in ${SECONDS}s"
grep -E "^ *(all_scatter|all_gather_gemm|gemm_reduce_scatter|all_reduce) " $w/tp.log | head -12
tar czf "$out/call13.tgz" -C $w .
