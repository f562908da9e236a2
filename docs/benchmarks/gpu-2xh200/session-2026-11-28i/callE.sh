#!/usr/bin/env bash
# Session 2026-11-28 (nineteenth), call E, the final build: (1) on GPU 0 alone, the cuBLAS anchor (run-gemm.sh)
# and the GEMM alone on every anchor shape, bf16 and fp16, validated (gpu-run.sh gemm), in the same run;
# (2) where the machine has 2 GPUs, the automatic all-scatter 8192^3 fp16 on one PE per GPU (it should take the
# copy engines), validated, 1000 calls back to back validated again; (3) GemmGpuTest's cluster, automatic-path
# and across-nodes cases (the validations and back-to-back cases ran in call D on this kernel).
set -u
here=$(pwd)
w=/tmp/oE; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
CUDA_VISIBLE_DEVICES=0 OUT=$w/gemm timeout 330 bash "$here/gpu-run.sh" gemm > $w/gemm.log 2>&1
echo "gemm alone rc=$? at ${SECONDS}s: PASS=$(grep -c 'PASS' $w/gemm.log) FAIL=$(grep -c 'FAIL' $w/gemm.log)"
tar czf "$out/callE.tgz" -C $w .
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=6G timeout 150 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c all_scatter --shapes 8192x8192x8192,4096x4096x4096 --dtype fp16 --validate \
    --back-to-back 1000 > $w/auto-scatter.log 2>&1
  echo "auto all-scatter rc=$? at ${SECONDS}s"; grep -E "^all_scatter |validated|copy engines" $w/auto-scatter.log | cut -c1-220
fi
tar czf "$out/callE.tgz" -C $w .
s="java.lang.String"
OUT=$w timeout 300 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#clustersOfTwoValidate(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#autoPathWherePesShareAGpu($s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#acrossNodesTheReferencePathValidates($s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callE.tgz" -C $w .
