#!/usr/bin/env bash
# Session 2026-11-28n, call 5 on one H200: where the fused all-reduce's time goes on a shared GPU, by the kernel's own
# cycle counters (call5-timers.patch, -DJGEMM_X_TIMERS=300: per CTA, consumer thread 0's cycles in the main loops,
# the epilogue's settle and reclaim waits, the publication of owned and other tiles, the tail's parts, and the
# sender's busy and idle cycles, printed for call 300). Both PEs on the GPU under MPS, bf16, 400 calls.
set -u
here=$(pwd)
w=/tmp/o5; mkdir -p $w/gemm
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # name compile-options iters dtype collective shape [options]
  local name=$1 opts=$2 it=$3 dt=$4 c=$5 shape=$6; shift 6
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --iters $it "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
OLD="-DJGEMM_SENDER_SUMS=0"
{
mps_start
T="-DJGEMM_X_TIMERS=300"
for r in 1 2; do
  g alone-$r "$T" 400 bf16 none 8192x8192x4096
  g ar-$r "$T" 400 bf16 all_reduce 8192x8192x8192 --path fused
  g rs-$r "$T" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused
  g ar-plain-$r "" 400 bf16 all_reduce 8192x8192x8192 --path fused
  tar czf "$out/call5.tgz" -C $w .
done
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
