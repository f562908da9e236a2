#!/usr/bin/env bash
# Session 2026-11-28 (twenty-second), call 4 on 2 x H200: the order of the tile rows for the fused all-reduce and
# GEMM + reduce-scatter. Call 3 found TileRowOrder's rounds (a PE's own rows D rounds after the peers' same rows)
# about 0.15 ms slower than the rows in order on one shared H200, with or without the sums. Two experiment orders
# (call4-orders.patch, in variant/gemm-ext-x.jar first on the class path; the results are valid, every order is):
# IDENTITY_ORDER (tile rows in order: an owner's rows mostly park and are summed at the end) and OWN_LAST (from the
# next PE's block on, wrapping around: the PE's own rows last, every peer partial in by then). A: one PE per GPU;
# B: both PEs on GPU 0 under MPS, 600 calls. Interleaved, two rounds; round 1 validated.
set -u
here=$(pwd)
w=/tmp/o4; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/variant/gemm-ext-x.jar:$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name compile-options dtype collective shape [GemmMain options]
  local name=$1 opts=$2 dt=$3 c=$4 shape=$5; shift 5
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
orders() { # prefix dtype collective shape [options]
  local pre=$1 dt=$2 c=$3 sh=$4; shift 4
  g $pre-rounds "" $dt $c $sh --path fused "$@"
  g $pre-identity "-DJGEMM_X_IDENTITY_ORDER" $dt $c $sh --path fused "$@"
  g $pre-ownlast "-DJGEMM_X_OWN_LAST" $dt $c $sh --path fused "$@"
}
{
echo "== A: 2 x H200, one PE per GPU"
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g a-alone-ar-$r "" bf16 none 8192x8192x4096 "${v[@]}"
  orders a-ar-bf16-$r bf16 all_reduce 8192x8192x8192 "${v[@]}"
  orders a-ar-fp16-$r fp16 all_reduce 8192x8192x8192 "${v[@]}"
  g a-alone-rs-$r "" bf16 none 8192x8192x2048 "${v[@]}"
  orders a-rs-bf16-$r bf16 gemm_reduce_scatter 8192x8192x4096 "${v[@]}"
  tar czf "$out/call4.tgz" -C $w .
done
for r in 1 2; do
  orders a200-ar-fp16-$r fp16 all_reduce 8192x8192x8192 --iters 200
  orders a200-rs-bf16-$r bf16 gemm_reduce_scatter 8192x8192x4096 --iters 200
done
tar czf "$out/call4.tgz" -C $w .
echo "== B: both PEs on GPU 0 under MPS, 600 calls"
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g b-alone-$r "" bf16 none 8192x8192x4096 --iters 600
  orders b-ar-bf16-$r bf16 all_reduce 8192x8192x8192 --iters 600 "${v[@]}"
  orders b-rs-bf16-$r bf16 gemm_reduce_scatter 8192x8192x8192 --iters 600
  orders b-ar-fp16-$r fp16 all_reduce 8192x8192x8192 --iters 600
  tar czf "$out/call4.tgz" -C $w .
done
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
