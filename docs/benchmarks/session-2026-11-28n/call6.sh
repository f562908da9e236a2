#!/usr/bin/env bash
# Session 2026-11-28n, call 6 on 2 x H200: the owner folds the peers' partials into its accumulators with every load
# of its fragment in flight at once (call6-fold-peers.patch, JGEMM_FOLD_PEERS=1, new default) against the sum over the
# output tile (-DJGEMM_FOLD_PEERS=0, the code before), with the kernel's cycle counters (-DJGEMM_X_TIMERS=300) once
# each. Part 1: both PEs on GPU 0 under MPS, bf16, 400 calls, two rounds; part 2: one PE per GPU, 200 calls; part 3:
# GemmGpuTest's validations and 1000-call cases on the new default.
set -u
here=$(pwd)
w=/tmp/o6; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
SECONDS=0
g() { # name compile-options iters dtype collective shape [options]
  local name=$1 opts=$2 it=$3 dt=$4 c=$5 shape=$6; shift 6
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --iters $it "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
OLD="-DJGEMM_FOLD_PEERS=0"
T="-DJGEMM_X_TIMERS=300"
{
echo "== part 1: both PEs on GPU 0 (MPS)"
mps_start
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  CUDA_VISIBLE_DEVICES=0 g alone-$r "" 400 bf16 none 8192x8192x4096
  CUDA_VISIBLE_DEVICES=0 g ar-old-$r "$OLD" 400 bf16 all_reduce 8192x8192x8192 --path fused
  CUDA_VISIBLE_DEVICES=0 g ar-fold-$r "" 400 bf16 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  CUDA_VISIBLE_DEVICES=0 g rs-old-$r "$OLD" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused
  CUDA_VISIBLE_DEVICES=0 g rs-fold-$r "" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused "${v[@]}"
  tar czf "$out/call6.tgz" -C $w .
done
CUDA_VISIBLE_DEVICES=0 g ar-old-timers "$OLD $T" 400 bf16 all_reduce 8192x8192x8192 --path fused
CUDA_VISIBLE_DEVICES=0 g ar-fold-timers "$T" 400 bf16 all_reduce 8192x8192x8192 --path fused
mps_stop
echo "== part 2: one PE per GPU"
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g x2-alone-$r "" 200 bf16 none 8192x8192x4096
  g x2-ar-old-$r "$OLD" 200 bf16 all_reduce 8192x8192x8192 --path fused
  g x2-ar-fold-$r "" 200 bf16 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  g x2-rs-old-$r "$OLD" 200 bf16 gemm_reduce_scatter 8192x8192x4096 --path fused
  g x2-rs-fold-$r "" 200 bf16 gemm_reduce_scatter 8192x8192x4096 --path fused "${v[@]}"
  tar czf "$out/call6.tgz" -C $w .
done
g x2-ar-old-timers "$OLD $T" 300 bf16 all_reduce 8192x8192x8192 --path fused
g x2-ar-fold-timers "$T" 300 bf16 all_reduce 8192x8192x8192 --path fused
tar czf "$out/call6.tgz" -C $w .
echo "== part 3: tests"
s="java.lang.String"
OUT=$w/tests timeout 250 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
