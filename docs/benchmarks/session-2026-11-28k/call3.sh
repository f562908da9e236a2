#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 3 on 4 x H200, one PE per GPU: the fused all-scatter by the copy engines
# (the automatic choice from 150 GFLOP per PE) against the kernel's stores, interleaved over two rounds, at three
# sizes, beside each shard alone; 8192^3 validated both ways.
set -u
here=$(pwd)
w=/tmp/o3; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -6; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective dtype shapes [options]
  local name=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 90 mpirun -np 4 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log
  tar czf "$out/call3.tgz" -C $w .
}
{
g ce-v all_scatter fp16 8192x8192x8192 --path fused --scatter copy_engine --validate
g st-v all_scatter fp16 8192x8192x8192 --path fused --scatter stores --validate
for r in 1 2; do
  g ce-$r all_scatter fp16 8192x8192x8192,16384x8192x8192,4096x8192x8192 --path fused --scatter copy_engine
  g st-$r all_scatter fp16 8192x8192x8192,16384x8192x8192,4096x8192x8192 --path fused --scatter stores
  g alone-$r none fp16 8192x2048x8192,16384x2048x8192,4096x2048x8192
done
g ce-bf16 all_scatter bf16 8192x8192x8192 --path fused --scatter copy_engine
g st-bf16 all_scatter bf16 8192x8192x8192 --path fused --scatter stores
} 2>&1 | tee $w/sweep.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
