#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth), call F on 2 x H200, one PE per GPU: call E's comparison (fused against the
# reference path in the same run) at the sizes between where the fused forms lost and won, and the all-scatter
# below 2048^3; two rounds, the first validated.
set -u
here=$(pwd)
w=/tmp/oF; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv > $w/machine.txt
SECONDS=0
g() { # round collective dtype shapes [options]
  local r=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=2G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused --reference "$@" \
    --csv $w/sweep.csv > $w/$c-$r.log 2>&1
  echo "$c round $r rc=$? PASS=$(grep -c PASS $w/$c-$r.log) FAIL=$(grep -c FAIL $w/$c-$r.log) at ${SECONDS}s"
  tail -3 $w/sweep.csv | cut -d, -f1-5,8,10,12
}
mid=2048x2048x4096,3072x3072x3072,4096x4096x2048
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g $r all_reduce bf16 $mid "${v[@]}"
  g $r all_gather_gemm fp16 $mid "${v[@]}"
  g $r gemm_reduce_scatter bf16 $mid "${v[@]}"
  g $r all_scatter fp16 512x512x512,1024x1024x1024,2048x2048x1024 "${v[@]}"
  tar czf "$out/callF.tgz" -C $w .
done 2>&1 | tee $w/sweep.txt
