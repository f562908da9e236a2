#!/usr/bin/env bash
# Session 2026-11-29d, call 6 on one H200 (issue 13): the two-shot all-reduce's owners hand their sums to the sender
# warps, which store them into every PE's C (new, JGEMM_SM90_SENDER_SUMS=1), against the consumers' bulk copies
# (old: the same jar with JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_SM90_SENDER_SUMS=0). PEs share the GPU under MPS.
# 1. Validation of new: 2 and 3 PEs, owners' rows ending inside tiles, both types, 1000 calls back to back.
# 2. 8192^3 all-reduce (new, old) beside the shard 8192x8192x4096 alone, 600 timed calls, bf16 two rounds (round 1
#    validates every case), fp16 one round.
# 3. gpu-run.sh gemm (the anchor, then the 12 shapes in both types, validated) and gemm-fused 2 (the four fused forms).
set -u
here=$(pwd)
w=/tmp/o6s29d; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # variant name np collective dtype shapes [options]
  local v=$1 name=$2 np=$3 c=$4 dt=$5 shapes=$6; shift 6
  local opt=""; [ $v = old ] && opt=-DJGEMM_SM90_SENDER_SUMS=0
  JSHMEM_GEMM_COMPILE_OPTIONS=$opt JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np $np --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes "$shapes" --dtype $dt "$@" --csv $w/$v-$name.csv > $w/$v-$name.log 2>&1
  echo "$v $name rc=$? PASS=$(grep -c PASS $w/$v-$name.log) FAIL=$(grep -c FAIL $w/$v-$name.log) at ${SECONDS}s:" \
    "$(tail -n +2 $w/$v-$name.csv 2>/dev/null | cut -d, -f2-6,8,13 | tr '\n' ' ')"
}
{
for dt in bf16 fp16; do
  g new val2-$dt 2 all_reduce $dt 4096x4096x4096,1000x1024x1024,2055x4112x1024 --path fused --allreduce two_shot --validate --iters 3 --warmup 1
  g new val3-$dt 3 all_reduce $dt 2600x1536x1024,3000x3072x1024 --path fused --allreduce two_shot --validate --iters 3 --warmup 1
done
g new b2b 2 all_reduce bf16 1024x1024x1024 --path fused --allreduce two_shot --validate --back-to-back 1000 --iters 2 --warmup 1
tar czf "$out/call6.tgz" -C $w .
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  if [ $r = 1 ]; then order="alone new old"; else order="old new alone"; fi
  for x in $order; do
    if [ $x = alone ]; then g new alone-bf16-$r 2 none bf16 8192x8192x4096 --iters 600 "${v[@]}"
    else g $x fused-bf16-$r 2 all_reduce bf16 8192x8192x8192 --path fused --iters 600 "${v[@]}"; fi
  done
done
for x in new old alone; do
  if [ $x = alone ]; then g new alone-fp16 2 none fp16 8192x8192x4096 --iters 600
  else g $x fused-fp16 2 all_reduce fp16 8192x8192x8192 --path fused --iters 600; fi
done
mps_stop
tar czf "$out/call6.tgz" -C $w .
OUT=$w/gemm timeout 150 bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s"
GEMM_COLLECTIVES="all_gather_gemm all_scatter all_reduce gemm_reduce_scatter" GEMM_SHAPES=4096x4096x4096 \
  OUT=$w/fused timeout 120 bash gpu-run.sh gemm-fused 2 > $w/fused.log 2>&1
echo "fused rc=$? PASS=$(grep -c PASS $w/fused.log) FAIL=$(grep -c FAIL $w/fused.log) at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
