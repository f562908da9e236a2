#!/usr/bin/env bash
# Session 2026-11-28 (nineteenth), call D on 2 x H200, one PE per GPU: the all-scatter by the copy engines after
# two changes (chunks counted as soon as their last tile is stored, not one unit later; on-stream SET signals as
# stream writes, no kernel) against the kernel's stores, interleaved: rounds 1 (validated) and 2 over 2048^3 ..
# 16384x8192x8192 fp16 (20 calls), round 3 at 8192^3 (200 calls) with the shard alone; bf16 8192^3; all-gather + GEMM and GEMM + reduce-scatter
# at issue 19's shapes (20 calls); PyTorch's
# anchor (run-torch.sh) in the same call; then GpuStreamOpsTest and GemmGpuTest's validations and back-to-back cases.
set -u
here=$(pwd)
w=/tmp/oD; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective dtype shapes [options]
  local name=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 150 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log
}
sizes=2048x2048x2048,4096x4096x4096,4096x8192x8192,8192x8192x8192,16384x8192x8192
{
g r1-stores all_scatter fp16 $sizes --scatter stores --reference --validate
g r1-ce all_scatter fp16 $sizes --scatter copy_engine --validate
g r2-ce all_scatter fp16 $sizes --scatter copy_engine
g r2-stores all_scatter fp16 $sizes --scatter stores
g r3-alone none fp16 8192x4096x8192 --iters 200
g r3-ce all_scatter fp16 8192x8192x8192 --scatter copy_engine --iters 200
g r3-stores all_scatter fp16 8192x8192x8192 --scatter stores --iters 200
g r4-alone none fp16 8192x4096x8192
g bf16-ce all_scatter bf16 8192x8192x8192 --scatter copy_engine --validate
g bf16-stores all_scatter bf16 8192x8192x8192 --scatter stores --validate
g ag all_gather_gemm fp16 8192x11008x4096 --reference
g rs gemm_reduce_scatter bf16 8192x8192x4096 --reference
} 2>&1 | tee $w/sweep.txt
tar czf "$out/callD.tgz" -C $w .
echo "== PyTorch anchor"
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 200 bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep "all_scatter\|matmul bf16" $w/torch-anchor.log
tar czf "$out/callD.tgz" -C $w .
s="java.lang.String"
OUT=$w timeout 330 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callD.tgz" -C $w .
