#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 6 on 2 x H200, one PE per GPU, the final build: the fused all-scatter fp16
# 8192^3 (copy engines, automatic) against its shard alone (-c none, 8192x4096x8192), now with equal warm-up,
# interleaved over three rounds of 20 calls, then two of 200.
set -u
here=$(pwd)
w=/tmp/o6; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective shape [options]
  local name=$1 c=$2 sh=$3; shift 3
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 90 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $sh --dtype fp16 "$@" --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s $(grep -E "^$c " $w/$name.log)"
  tar czf "$out/call6.tgz" -C $w .
}
{
g as-v all_scatter 8192x8192x8192 --validate
for r in 1 2 3; do
  g alone-20-$r none 8192x4096x8192
  g as-20-$r all_scatter 8192x8192x8192
done
for r in 1 2; do
  g alone-200-$r none 8192x4096x8192 --iters 200
  g as-200-$r all_scatter 8192x8192x8192 --iters 200
done
} 2>&1 | tee $w/sweep.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
