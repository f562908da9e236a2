#!/usr/bin/env bash
# Session 2026-11-28 (eighteenth), call F on 2 x H200, one PE per GPU, the final build (hardware conversions in
# the fused sums): the fused forms beside the reference path in the same run (GemmMain --path fused
# --reference), two rounds, round 1 validated: fp16 all-reduce and GEMM + reduce-scatter (whose sums changed),
# issue 19's three cases; then PyTorch's anchor (run-torch.sh).
set -u
here=$(pwd)
w=/tmp/oF; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
g() { # round collective dtype shapes [options]
  local r=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=6G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused --reference "$@" \
    --csv $w/sweep.csv > $w/$c-$dt-$r.log 2>&1
  echo "$c $dt round $r rc=$? PASS=$(grep -c PASS $w/$c-$dt-$r.log) FAIL=$(grep -c FAIL $w/$c-$dt-$r.log) at ${SECONDS}s"
  grep -E "^$c " $w/$c-$dt-$r.log
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g $r all_reduce fp16 4096x4096x4096,8192x8192x8192 "${v[@]}"
  g $r gemm_reduce_scatter fp16 4096x4096x4096,8192x8192x4096 "${v[@]}"
  g $r gemm_reduce_scatter bf16 8192x8192x4096 "${v[@]}"
  g $r all_gather_gemm fp16 8192x11008x4096 "${v[@]}"
  g $r all_scatter fp16 8192x8192x8192 "${v[@]}"
  tar czf "$out/callF.tgz" -C $w .
done 2>&1 | tee $w/sweep.txt
echo "== PyTorch anchor"
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 200 bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep -v "^#\|^W1" $w/torch-anchor.log | tail -14
tar czf "$out/callF.tgz" -C $w .
