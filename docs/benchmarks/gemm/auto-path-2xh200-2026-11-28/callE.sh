#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth), call E on 2 x H200, one PE per GPU: each fused collective GEMM against the
# reference path (cuBLAS + jshmem's collective) in the same run (GemmMain --path fused --reference), over sizes,
# two rounds (the first validated against cuBLAS), for the auto path's rule; then the PyTorch anchor.
set -u
here=$(pwd)
w=/tmp/oE; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
g() { # round collective dtype shapes [options]
  local r=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=6G timeout 150 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused --reference "$@" \
    --csv $w/sweep.csv > $w/$c-$r.log 2>&1
  echo "$c round $r rc=$? PASS=$(grep -c PASS $w/$c-$r.log) FAIL=$(grep -c FAIL $w/$c-$r.log) at ${SECONDS}s"
  tail -4 $w/sweep.csv | cut -d, -f1-5,8,10,12
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g $r all_reduce bf16 2048x2048x2048,4096x4096x4096,8192x8192x4096,8192x8192x8192 "${v[@]}"
  g $r all_gather_gemm fp16 2048x2048x2048,4096x4096x4096,8192x8192x4096,8192x11008x4096 "${v[@]}"
  g $r gemm_reduce_scatter bf16 2048x2048x2048,4096x4096x4096,8192x4096x4096,8192x8192x4096 "${v[@]}"
  g $r all_scatter fp16 2048x2048x2048,4096x4096x4096,8192x8192x4096,8192x8192x8192 "${v[@]}"
  tar czf "$out/callE.tgz" -C $w .
done 2>&1 | tee $w/sweep.txt
echo "== PyTorch anchor"
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 240 bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep -v "^#" $w/torch-anchor.log | tail -12
tar czf "$out/callE.tgz" -C $w .
