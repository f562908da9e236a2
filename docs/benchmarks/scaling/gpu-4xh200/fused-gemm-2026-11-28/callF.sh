#!/usr/bin/env bash
# Session 2026-11-28 (twentieth), call F on 4 x H200, one PE per GPU: the fused GEMMs on 4 PEs for the first time,
# each validated against cuBLAS on the whole GEMM and beside the reference path (cuBLAS + jshmem's collective) in the
# same run; the all-scatter by the copy engines (the automatic choice there); then PyTorch's anchor on 4 ranks
# (run-torch.sh 4) while the budget lasts.
set -u
here=$(pwd)
w=/tmp/oF; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -5; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective dtype shapes [options]
  local name=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 60 mpirun -np 4 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log
  tar czf "$out/callF.tgz" -C $w .
}
{
g as all_scatter fp16 8192x8192x8192 --reference --validate
g alone none fp16 8192x2048x8192
g ag all_gather_gemm fp16 8192x11008x4096 --reference --validate
g rs gemm_reduce_scatter bf16 8192x8192x4096 --reference --validate
g ar all_reduce bf16 8192x8192x4096 --reference --validate
} 2>&1 | tee $w/sweep.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callF.tgz" -C $w .
echo "== PyTorch anchor, 4 ranks"
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 90 bash "$here/anchors/run-torch.sh" 4) > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep "all_scatter\|matmul\|gemm_rs\|ag_gemm" $w/torch-anchor.log | head -20
tar czf "$out/callF.tgz" -C $w .
