#!/usr/bin/env bash
# Session 2026-11-28 (nineteenth), call A on 2 x H200, one PE per GPU: (1) the copy-engine probe for the
# all-scatter (as_ce_probe.cu, cuBLAS GEMM halves with and without CE pushes of the output to the peer);
# (2) the shard alone, the fused all-scatter, all-gather + GEMM (own-rows change, first time on 2 GPUs)
# and GEMM + reduce-scatter beside the reference path, two rounds, round 1 validated; 200 calls each;
# (3) PyTorch's anchor (run-torch.sh) in the same call.
set -u
here=$(pwd)
w=/tmp/oA; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1; cat $w/machine.txt
SECONDS=0
nvcc=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
$nvcc -O2 -arch=sm_90 -o $w/as_ce $here/as_ce_probe.cu -lcublas > $w/probe-build.log 2>&1; echo "probe build rc=$?"; tail -3 $w/probe-build.log
timeout 150 $w/as_ce 200 2>&1 | tee $w/probe.csv
echo "probe done at ${SECONDS}s"
tar czf "$out/callA.tgz" -C $w .
g() { # round collective dtype shapes [options]
  local r=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=6G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused --iters 200 "$@" \
    --csv $w/sweep.csv > $w/$c-$dt-$r.log 2>&1
  echo "$c $dt round $r rc=$? PASS=$(grep -c PASS $w/$c-$dt-$r.log) FAIL=$(grep -c FAIL $w/$c-$dt-$r.log) at ${SECONDS}s"
  grep -E "^$c |ms" $w/$c-$dt-$r.log | tail -3
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g $r none fp16 8192x4096x8192 "${v[@]}"
  g $r all_scatter fp16 8192x8192x8192 --reference "${v[@]}"
  g $r all_gather_gemm fp16 8192x11008x4096 --reference "${v[@]}"
  g $r gemm_reduce_scatter bf16 8192x8192x4096 --reference "${v[@]}"
  tar czf "$out/callA.tgz" -C $w .
done 2>&1 | tee $w/sweep.txt
echo "== PyTorch anchor"
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 200 bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep -v "^#\|^W1" $w/torch-anchor.log | tail -14
tar czf "$out/callA.tgz" -C $w .
