#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 7 on one H200: the tile order's group (--group-m, tile rows a wave walks
# before the next column) against the power cap. A wave of 132 tiles of 128x256 reads 8 strips of A and 16.5 tile
# columns of B with groups of 8, 16 and 8.25 with groups of 16: about a fifth less from HBM at 8192x4096x8192.
# Sustained runs (about 1 s), groups interleaved over two rounds; then the anchor's 12 shapes, 20 calls, groups of
# 8 and 16, validated.
set -u
here=$(pwd)
w=/tmp/o7; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; } > $w/machine.txt 2>&1
SECONDS=0
s() { # name dtype shape iters group [options]
  local name=$1 dt=$2 sh=$3 it=$4 gm=$5; shift 5
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 100 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes $sh --dtype $dt --iters $it --group-m $gm "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "== $name rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log)"
  grep -E "^none " $w/$name.log
  tar czf "$out/call7.tgz" -C $w .
}
{
for r in 1 2; do
  for g in 8 16 32 4; do s fp16-4k-g$g-$r fp16 8192x4096x8192 1200 $g; done
  for g in 8 16; do s bf16-4k-g$g-$r bf16 8192x4096x8192 1200 $g; done
  for g in 8 16; do s fp16-8k-g$g-$r fp16 8192x8192x8192 400 $g; done
done
s anchor-fp16-g16 fp16 anchor 20 16 --validate
s anchor-fp16-g8 fp16 anchor 20 8
s anchor-bf16-g16 bf16 anchor 20 16 --validate
s anchor-bf16-g8 bf16 anchor 20 8
} 2>&1 | tee $w/sweep.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
