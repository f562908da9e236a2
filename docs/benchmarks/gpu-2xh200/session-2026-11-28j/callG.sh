#!/usr/bin/env bash
# Session 2026-11-28 (twentieth), call G on 2 x H200, one PE per GPU: the final build. Issue 19's fused cases validated
# beside the reference path and the shard alone (20 calls); then GpuStreamOpsTest and GemmGpuTest's validations and
# back-to-back cases.
set -u
here=$(pwd)
w=/tmp/oG; mkdir -p $w
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
{
g as all_scatter fp16 8192x8192x8192 --reference --validate --back-to-back 1000
g alone none fp16 8192x4096x8192
g ag all_gather_gemm fp16 8192x11008x4096 --reference --validate
g rs gemm_reduce_scatter bf16 8192x8192x4096 --reference --validate
} 2>&1 | tee $w/sweep.txt
tar czf "$out/callG.tgz" -C $w .
s="java.lang.String"
OUT=$w timeout 330 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callG.tgz" -C $w .
