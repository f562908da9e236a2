#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 2 on 2 x H200, one PE per GPU: issue 19's fused forms (validated, with the
# reference path) and the all-scatter's shard alone, 20 and 200 calls; then PyTorch's anchor (run-torch.sh) in the
# same call.
set -u
here=$(pwd)
w=/tmp/o2; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective dtype shapes [options]
  local name=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 120 mpirun -np 2 --bind-to none java \
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
g as200 all_scatter fp16 8192x8192x8192 --iters 200
g alone200 none fp16 8192x4096x8192 --iters 200
g as200b all_scatter fp16 8192x8192x8192 --iters 200
g alone200b none fp16 8192x4096x8192 --iters 200
} 2>&1 | tee $w/sweep.txt
tar czf "$out/call2.tgz" -C $w .
timeout 300 bash "$here/anchors/run-torch.sh" > $w/torch.log 2>&1
echo "torch rc=$? at ${SECONDS}s"
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
