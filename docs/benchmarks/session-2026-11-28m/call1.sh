#!/usr/bin/env bash
# Session 2026-11-28 (twenty-third), call 1 on one H200: the fused all-reduce's +8-10% over its shard alone with
# both PEs on one GPU (issue 13). Experiment flags (call1-experiment.patch; compiled in through
# JSHMEM_GEMM_COMPILE_OPTIONS): PEER_GPU_SCOPE (stamps and their waits at GPU scope: right when every peer is on
# this GPU), PREFETCH=N (the producer prefetches the peers' partials of an owned tile into L2 N k-steps before its
# main loop ends), EVICT_FIRST (pushes and the sum's reads of partials streamed: evict-first in L2), EVICT_BULK
# (the consumers' bulk stores evict-first), NOPUSH (timing only: the sender does not store the partials), and
# call 3's ablation flags. bf16 all-reduce 8192^3 against 8192x8192x4096 alone, 600 calls, two rounds.
set -u
here=$(pwd)
w=/tmp/o1; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # name compile-options dtype collective shape [options]
  local name=$1 opts=$2 dt=$3 c=$4 shape=$5; shift 5
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --iters 600 "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
ar() { local n=$1 o=$2; shift 2; g "$n" "$o" bf16 all_reduce 8192x8192x8192 --path fused "$@"; }
{
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g alone-$r "" bf16 none 8192x8192x4096
  ar base-$r ""
  ar gpuscope-$r "-DJGEMM_X_PEER_GPU_SCOPE" "${v[@]}"
  ar prefetch8-$r "-DJGEMM_X_PREFETCH=8" "${v[@]}"
  ar prefetch16-$r "-DJGEMM_X_PREFETCH=16"
  ar evictfirst-$r "-DJGEMM_X_EVICT_FIRST" "${v[@]}"
  ar evictbulk-$r "-DJGEMM_X_EVICT_BULK" "${v[@]}"
  g alone-evictbulk-$r "-DJGEMM_X_EVICT_BULK" bf16 none 8192x8192x4096
  ar nopush-$r "-DJGEMM_X_NOPUSH"
  ar combo-$r "-DJGEMM_X_PEER_GPU_SCOPE -DJGEMM_X_PREFETCH=8 -DJGEMM_X_EVICT_FIRST" "${v[@]}"
  ar floor-$r "-DJGEMM_X_NOSUM -DJGEMM_X_OWNSTORE -DJGEMM_X_NEVERPARK -DJGEMM_X_NOWAIT -DJGEMM_X_IDENTITY_ORDER -DJGEMM_X_NOPUSH -DJGEMM_X_PEER_GPU_SCOPE"
  g rs-base-$r "" bf16 gemm_reduce_scatter 8192x8192x8192 --path fused
  g rs-prefetch8-$r "-DJGEMM_X_PREFETCH=8" bf16 gemm_reduce_scatter 8192x8192x8192 --path fused "${v[@]}"
  tar czf "$out/call1.tgz" -C $w .
done
} 2>&1 | tee $w/summary.txt
mps_stop
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
