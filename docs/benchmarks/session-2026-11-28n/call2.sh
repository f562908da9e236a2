#!/usr/bin/env bash
# Session 2026-11-28n, call 2 on 2 x H200: the owners' sums of the fused all-reduce and reduce-scatter moved from the
# consumer warpgroups to the sender warps (JGEMM_SENDER_SUMS=1, the new default) against the build before
# (-DJGEMM_SENDER_SUMS=0: the same codegen as the commit before), issue 13's last target: the fused all-reduce within
# 5% of its shard alone with both PEs on one H200. Knobs: JGEMM_SM90_PRODUCER_REGS (the producer warpgroup's
# registers, 40), JGEMM_SENDER_SUM_BATCH (the sender's loads in flight per thread, 2). Part 1: both PEs on GPU 0 under
# MPS, bf16, 400 calls, two rounds; part 2: one PE per GPU, 200 calls.
set -u
here=$(pwd)
w=/tmp/o2; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
SECONDS=0
g() { # name compile-options iters dtype collective shape [options]
  local name=$1 opts=$2 it=$3 dt=$4 c=$5 shape=$6; shift 6
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --iters $it "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
OLD="-DJGEMM_SENDER_SUMS=0"
{
echo "== part 1: both PEs on GPU 0 (MPS)"
mps_start
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  CUDA_VISIBLE_DEVICES=0 g alone-$r "" 400 bf16 none 8192x8192x4096
  CUDA_VISIBLE_DEVICES=0 g ar-old-$r "$OLD" 400 bf16 all_reduce 8192x8192x8192 --path fused
  CUDA_VISIBLE_DEVICES=0 g ar-new-$r "" 400 bf16 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  CUDA_VISIBLE_DEVICES=0 g ar-regs48-$r "-DJGEMM_SM90_PRODUCER_REGS=48" 400 bf16 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  CUDA_VISIBLE_DEVICES=0 g rs-old-$r "$OLD" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused
  CUDA_VISIBLE_DEVICES=0 g rs-new-$r "" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused "${v[@]}"
  tar czf "$out/call2.tgz" -C $w .
done
mps_stop
echo "== part 2: one PE per GPU"
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g x2-alone-$r "" 200 bf16 none 8192x8192x4096
  g x2-ar-old-$r "$OLD" 200 bf16 all_reduce 8192x8192x8192 --path fused
  g x2-ar-new-$r "" 200 bf16 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  g x2-rs-old-$r "$OLD" 200 bf16 gemm_reduce_scatter 8192x8192x4096 --path fused
  g x2-rs-new-$r "" 200 bf16 gemm_reduce_scatter 8192x8192x4096 --path fused "${v[@]}"
  tar czf "$out/call2.tgz" -C $w .
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
