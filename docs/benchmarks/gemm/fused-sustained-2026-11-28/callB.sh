#!/usr/bin/env bash
# Session 2026-11-28 (eighteenth), call B on one H200: issue 13's fused kernels against the GEMM alone,
# both PEs on GPU 0 under MPS, in the two regimes GemmMain can time: the default (20 timed calls after
# about 100 ms of warm-up, before the power cap settles) and sustained (600 timed calls, about 1 s, at
# the cap). nvidia-smi samples SM clock and power every 20 ms. Two rounds interleaved; round 1 validates.
#   all-scatter 8192^3 (shard 8192x4096x8192) fp16 sustained, bf16 default
#   all-reduce  8192^3 (shard 8192x8192x4096) bf16 and fp16 sustained, bf16 default
set -u
here=$(pwd)
w=/tmp/oB; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
nvidia-smi -i 0 --query-gpu=timestamp,clocks.sm,power.draw,utilization.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 20 > $w/smi.csv 2>&1 &
smi=$!
SECONDS=0
g() { # name dtype iters collective shape [GemmMain options]
  local name=$1 dt=$2 it=$3 c=$4 shape=$5; shift 5
  echo "$(date +'%Y/%m/%d %H:%M:%S.%3N') start $name" >> $w/marks.txt
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --iters $it "$@" --csv $w/one.csv > $w/$name.log 2>&1
  local rc=$?
  echo "$(date +'%Y/%m/%d %H:%M:%S.%3N') end $name" >> $w/marks.txt
  echo "$name rc=$rc PASS=$(grep -c PASS $w/$name.log) at ${SECONDS}s: $(tail -1 $w/one.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g as-fp16-alone-600-$r fp16 600 none 8192x4096x8192 "${v[@]}"
  g as-fp16-fused-600-$r fp16 600 all_scatter 8192x8192x8192 --path fused "${v[@]}"
  g ar-bf16-alone-600-$r bf16 600 none 8192x8192x4096 "${v[@]}"
  g ar-bf16-fused-600-$r bf16 600 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  g ar-fp16-alone-600-$r fp16 600 none 8192x8192x4096 "${v[@]}"
  g ar-fp16-fused-600-$r fp16 600 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  g as-bf16-alone-20-$r bf16 20 none 8192x4096x8192
  g as-bf16-fused-20-$r bf16 20 all_scatter 8192x8192x8192 --path fused
  g ar-bf16-alone-20-$r bf16 20 none 8192x8192x4096
  g ar-bf16-fused-20-$r bf16 20 all_reduce 8192x8192x8192 --path fused
  tar czf "$out/callB.tgz" -C $w .
done 2>&1 | tee $w/summary.txt
kill $smi
mps_stop
tar czf "$out/callB.tgz" -C $w .
