#!/usr/bin/env bash
# Session 2026-11-29 (thirty-second), call 4 on 2 x H200: an experiment (call4-wait-backoff.patch): the fused kernels'
# waits for stamps poll relaxed with __nanosleep(JGEMM_WAIT_BACKOFF ns) between polls, then acquire, instead of
# acquire-polling back to back (the waits at the end of the two-shot all-reduce: 256 threads of a CTA each on a stamp).
# Does less polling leave more of the power cap to the tensor cores? Interleaved, 2 rounds, bf16 600 calls:
# both PEs on GPU 0 under MPS (issue 13), then one PE per GPU (issue 19's all-reduce and GEMM + reduce-scatter).
set -u
here=$(pwd)
w=/tmp/o4; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
run() { # name backoff-ns collective dtype shape iters [options]
  local name=$1 b=$2 c=$3 dt=$4 shapes=$5 iters=$6; shift 6
  JSHMEM_GEMM_COMPILE_OPTIONS="-DJGEMM_WAIT_BACKOFF=$b" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=${SYM:-4G} \
    timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --iters $iters "$@" \
    --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s:" \
    "$(tail -n +2 $w/$name.csv 2>/dev/null | cut -d, -f1-6,8 | tr '\n' ' ')"
}
{
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  run shared-ar-alone-$r 0 none bf16 8192x8192x4096 600
  for b in 0 200 1000; do run shared-ar-b$b-$r $b all_reduce bf16 8192x8192x8192 600 --path fused "${v[@]}"; done
  for b in 0 1000; do run shared-as-b$b-$r $b all_scatter bf16 8192x8192x8192 600 --path fused "${v[@]}"; done
done
mps_stop
unset CUDA_VISIBLE_DEVICES
tar czf "$out/call4.tgz" -C $w .
SYM=8G
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  for b in 0 1000; do
    run pair-ar-b$b-$r $b all_reduce bf16 8192x8192x8192 200 --path fused "${v[@]}"
    run pair-rs-b$b-$r $b gemm_reduce_scatter bf16 8192x8192x4096 200 --path fused "${v[@]}"
  done
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
