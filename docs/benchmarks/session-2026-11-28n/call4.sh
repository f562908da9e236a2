#!/usr/bin/env bash
# Session 2026-11-28n, call 4 on one H200: call 2's lead checked in one run. The owners' sums on the sender warps
# (call2-sender-sums.patch applied, JGEMM_SENDER_SUMS=1) against the code before (-DJGEMM_SENDER_SUMS=0), both PEs
# on the GPU under MPS, bf16, 400 calls, three rounds: GEMM + reduce-scatter and the all-reduce, 8192^3.
set -u
here=$(pwd)
w=/tmp/o4; mkdir -p $w/gemm
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
for r in 1 2 3; do
  v=(); [ $r = 1 ] && v=(--validate)
  g alone-$r "" 400 bf16 none 8192x8192x4096
  g ar-old-$r "$OLD" 400 bf16 all_reduce 8192x8192x8192 --path fused
  g ar-new-$r "" 400 bf16 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  g rs-old-$r "$OLD" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused
  g rs-new-$r "" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused "${v[@]}"
  tar czf "$out/call4.tgz" -C $w .
done
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
