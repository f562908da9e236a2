#!/usr/bin/env bash
# Session 2026-11-28 (twenty-second), call 2 on 2 x H200. A: one PE per GPU, the owner's sum by the sender warps
# (new: JGEMM_SENDER_SUMS=1, sum batch 4) against the consumers (old: -DJGEMM_SENDER_SUMS=0), interleaved over two
# rounds of 20 calls (round 1 validated) and two of 200: all-reduce 8192^3 bf16 and fp16, GEMM + reduce-scatter
# bf16 8192x8192x4096 (issue 19's row), with the shards alone. B: both PEs on GPU 0 under MPS, 600 calls, bf16
# all-reduce 8192^3, an ablation of the owner's epilogue with experiment flags (timing only, wrong results):
# NOSUM (the peer's partial not read), OWNSTORE (the sum not stored into the peer's C), NEVERPARK (summed whatever
# is there), and all three.
set -u
here=$(pwd)
w=/tmp/o2; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name compile-options dtype collective shape [GemmMain options]
  local name=$1 opts=$2 dt=$3 c=$4 shape=$5; shift 5
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
old="-DJGEMM_SENDER_SUMS=0"
{
echo "== A: 2 x H200, one PE per GPU"
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g a-alone-ar-bf16-$r "" bf16 none 8192x8192x4096 "${v[@]}"
  for dt in bf16 fp16; do
    g a-ar-$dt-old-$r "$old" $dt all_reduce 8192x8192x8192 --path fused "${v[@]}"
    g a-ar-$dt-new-$r "" $dt all_reduce 8192x8192x8192 --path fused "${v[@]}"
  done
  g a-alone-rs-bf16-$r "" bf16 none 8192x8192x2048 "${v[@]}"
  g a-rs-bf16-old-$r "$old" bf16 gemm_reduce_scatter 8192x8192x4096 --path fused "${v[@]}"
  g a-rs-bf16-new-$r "" bf16 gemm_reduce_scatter 8192x8192x4096 --path fused "${v[@]}"
  tar czf "$out/call2.tgz" -C $w .
done
for r in 1 2; do
  g a200-ar-fp16-old-$r "$old" fp16 all_reduce 8192x8192x8192 --path fused --iters 200
  g a200-ar-fp16-new-$r "" fp16 all_reduce 8192x8192x8192 --path fused --iters 200
  g a200-rs-bf16-old-$r "$old" bf16 gemm_reduce_scatter 8192x8192x4096 --path fused --iters 200
  g a200-rs-bf16-new-$r "" bf16 gemm_reduce_scatter 8192x8192x4096 --path fused --iters 200
done
tar czf "$out/call2.tgz" -C $w .
echo "== B: both PEs on GPU 0 under MPS, 600 calls, bf16"
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  g b-alone-$r "" bf16 none 8192x8192x4096 --iters 600
  g b-old-$r "$old" bf16 all_reduce 8192x8192x8192 --path fused --iters 600
  g b-new-$r "" bf16 all_reduce 8192x8192x8192 --path fused --iters 600
  g b-nosum-$r "$old -DJGEMM_X_NOSUM" bf16 all_reduce 8192x8192x8192 --path fused --iters 600
  g b-ownstore-$r "$old -DJGEMM_X_OWNSTORE" bf16 all_reduce 8192x8192x8192 --path fused --iters 600
  g b-neverpark-$r "$old -DJGEMM_X_NEVERPARK" bf16 all_reduce 8192x8192x8192 --path fused --iters 600
  g b-none-$r "$old -DJGEMM_X_NOSUM -DJGEMM_X_OWNSTORE -DJGEMM_X_NEVERPARK" bf16 all_reduce 8192x8192x8192 --path fused --iters 600
  tar czf "$out/call2.tgz" -C $w .
done
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
