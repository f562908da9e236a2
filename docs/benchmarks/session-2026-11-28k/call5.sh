#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 5 on 4 x H200: the final build.
# 1. GPU 0 alone: the GEMM on the anchor's 12 shapes x bf16, fp16, validated, beside run-gemm.sh (cuBLAS) in the same
#    run (gpu-run.sh gemm).
# 2. GPUs 0-1, one PE each: issue 19's fused cases validated beside the reference path, the shard alone (-c none on
#    2 PEs, warmed by each PE's whole work now), then PyTorch's anchor on 2 ranks.
# 3. All four GPUs: the automatic all-scatter (the kernel's stores from 3 PEs) validated beside the reference path.
# 4. GPUs 0-1: GemmGpuTest's validations and back-to-back cases, GpuStreamOpsTest.
set -u
here=$(pwd)
w=/tmp/o5; mkdir -p $w/gemm
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -6; } > $w/machine.txt 2>&1
SECONDS=0
CUDA_VISIBLE_DEVICES=0 OUT=$w/gemm timeout 300 bash "$here/gpu-run.sh" gemm > $w/gemm/run.log 2>&1
echo "gemm rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/gemm/gemm-alone.log) FAIL=$(grep -c FAIL $w/gemm/gemm-alone.log)"
tar czf "$out/call5.tgz" -C $w .
g() { # np gpus name collective dtype shapes [options]
  local np=$1 gpus=$2 name=$3 c=$4 dt=$5 shapes=$6; shift 6
  CUDA_VISIBLE_DEVICES=$gpus JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 120 mpirun -np $np --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log
  tar czf "$out/call5.tgz" -C $w .
}
{
g 2 0,1 as2 all_scatter fp16 8192x8192x8192 --path fused --reference --validate
g 2 0,1 alone2 none fp16 8192x4096x8192
g 2 0,1 ag2 all_gather_gemm fp16 8192x11008x4096 --path fused --reference --validate
g 2 0,1 rs2 gemm_reduce_scatter bf16 8192x8192x4096 --path fused --reference --validate
g 4 0,1,2,3 as4 all_scatter fp16 8192x8192x8192 --reference --validate
} 2>&1 | tee $w/sweep.txt
echo "== PyTorch anchor, 2 ranks"
(export PATH=/opt/torch/.venv/bin:$PATH CUDA_VISIBLE_DEVICES=0,1; timeout 100 bash "$here/anchors/run-torch.sh" 2) > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep "all_scatter\|ag_gemm\|gemm_rs" $w/torch-anchor.log | head -20
tar czf "$out/call5.tgz" -C $w .
s="java.lang.String"
CUDA_VISIBLE_DEVICES=0,1 OUT=$w timeout 300 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
