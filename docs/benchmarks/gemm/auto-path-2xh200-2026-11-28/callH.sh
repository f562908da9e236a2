#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth), call H on one H200, both PEs on it under MPS: the fused forms beside the
# reference path in the same run (the rule for PEs sharing a GPU, kept from the earlier measurements on one H100).
# Two rounds, the first validated.
set -u
here=$(pwd)
w=/tmp/oH; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv > $w/machine.txt
. ./one-gpu.sh
mps_start
SECONDS=0
g() { # round collective dtype shapes [options]
  local r=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused --reference "$@" \
    --csv $w/sweep.csv > $w/$c-$r.log 2>&1
  echo "$c round $r rc=$? PASS=$(grep -c PASS $w/$c-$r.log) FAIL=$(grep -c FAIL $w/$c-$r.log) at ${SECONDS}s"
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g $r all_scatter fp16 1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x4096,8192x8192x8192 "${v[@]}"
  g $r all_reduce bf16 4096x4096x4096,8192x8192x4096 "${v[@]}"
  g $r all_gather_gemm fp16 4096x4096x4096,8192x11008x4096 "${v[@]}"
  g $r gemm_reduce_scatter bf16 4096x4096x4096,8192x8192x4096 "${v[@]}"
  tar czf "$out/callH.tgz" -C $w .
done 2>&1 | tee $w/sweep.txt
cut -d, -f1-5,8,10,12 $w/sweep.csv
mps_stop
tar czf "$out/callH.tgz" -C $w .
