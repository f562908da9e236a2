#!/usr/bin/env bash
# Session 2026-11-28 (eighteenth), call A on one H200: where the fused all-scatter's extra time goes,
# both PEs on GPU 0 under MPS, bf16, the issue-13 case (8192^3 all-scatter; shard 8192x4096x8192 alone),
# two rounds interleaved, 600 timed calls each, nvidia-smi sampling SM clock and power every 50 ms:
#   alone        the shard alone on both PEs at once
#   fused        the fused all-scatter as built
#   ownstamps0   -DJGEMM_AS_OWN_STAMPS=0: no stamps for the PE's own tiles (valid; validated in round 1)
#   self         -DJGEMM_SEND_SELF=1: the peer's copy stored into the PE's own C (wrong results; timing only)
#   unsent       -DJGEMM_SEND_STORES=0: the peer's copy not stored, its stamps still sent (timing only)
# (the two new macros: experiment-variants.patch)
set -u
here=$(pwd)
w=/tmp/oA; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
nvidia-smi -i 0 --query-gpu=timestamp,clocks.sm,power.draw,utilization.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 50 > $w/smi.csv 2>&1 &
smi=$!
SECONDS=0
g() { # name options collective shape [GemmMain options]
  local name=$1 opts=$2 c=$3 shape=$4; shift 4
  echo "$(date +'%Y/%m/%d %H:%M:%S.%3N') start $name" >> $w/marks.txt
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype bf16 --iters 600 "$@" --csv $w/one.csv > $w/$name.log 2>&1
  local rc=$?
  echo "$(date +'%Y/%m/%d %H:%M:%S.%3N') end $name" >> $w/marks.txt
  echo "$name rc=$rc PASS=$(grep -c PASS $w/$name.log) at ${SECONDS}s: $(tail -1 $w/one.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g alone-$r "" none 8192x4096x8192 "${v[@]}"
  g fused-$r "" all_scatter 8192x8192x8192 --path fused "${v[@]}"
  g ownstamps0-$r "-DJGEMM_AS_OWN_STAMPS=0" all_scatter 8192x8192x8192 --path fused "${v[@]}"
  g self-$r "-DJGEMM_SEND_SELF=1" all_scatter 8192x8192x8192 --path fused
  g unsent-$r "-DJGEMM_SEND_STORES=0" all_scatter 8192x8192x8192 --path fused
  tar czf "$out/callA.tgz" -C $w .
done 2>&1 | tee $w/summary.txt
kill $smi
mps_stop
tar czf "$out/callA.tgz" -C $w .
