#!/usr/bin/env bash
# Session 2026-11-29 (thirty-second), call 1 on 2 x H200, the build as committed at 26de83a (no code change since):
# 1. gpu-run.sh gemm on GPU 0: the cuBLAS anchor run-gemm.sh, then the GEMM alone on its 12 shapes, bf16 and fp16,
#    validated, and beside cuBLAS timed alike (issue 13's table).
# 2. Issue 13's fused kernels against their shards alone, both PEs on GPU 0 under MPS, 600 timed calls (at the
#    power cap), bf16 two rounds (round 1 validated) and fp16 one round, with nvidia-smi sampling GPU 0's power
#    and SM clock every 50 ms.
# 3. The fused forms on the pair (one PE per GPU), validated against the reference path, then the PyTorch anchor
#    run-torch.sh (issue 19's item 4).
# Run as cd .devpack && bash on-device.sh bash call1.sh
set -u
here=$(pwd)
w=/tmp/o1; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
nvidia-smi -L > $w/gpus.txt
OUT=$w/gemm timeout 200 bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s" | tee $w/summary.txt
tar czf "$out/call1.tgz" -C $w .
run() { # csv-name collective dtype shapes iters [options]
  local name=$1 c=$2 dt=$3 shapes=$4 iters=${5#-}; shift 5
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=${SYM:-4G} timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt ${iters:+--iters $iters} "$@" \
    --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s:" \
    "$(tail -n +2 $w/$name.csv 2>/dev/null | cut -d, -f1-6,8 | tr '\n' ' ')"
}
{
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
nvidia-smi -i 0 --query-gpu=timestamp,power.draw,clocks.sm,utilization.gpu --format=csv,noheader,nounits -lms 50 \
  > $w/smi.csv 2>/dev/null &
smi=$!
for r in bf16-1 bf16-2 fp16-1; do
  dt=${r%-*}; v=(); [ $r = bf16-1 ] && v=(--validate)
  echo "== $r start at ${SECONDS}s $(date +%T.%N)"
  run as-alone-$r none $dt 8192x4096x8192 600 "${v[@]}"
  run as-fused-$r all_scatter $dt 8192x8192x8192 600 --path fused "${v[@]}"
  run ar-alone-$r none $dt 8192x8192x4096 600 "${v[@]}"
  run ar-fused-$r all_reduce $dt 8192x8192x8192 600 --path fused "${v[@]}"
done
echo "== shared-GPU runs end at ${SECONDS}s $(date +%T.%N)"
kill $smi
mps_stop
unset CUDA_VISIBLE_DEVICES
tar czf "$out/call1.tgz" -C $w .
SYM=8G
run pair-as-alone none fp16 8192x4096x8192 -
run pair-as-fused all_scatter fp16 8192x8192x8192 - --path fused --reference --validate
run pair-ag all_gather_gemm fp16 8192x11008x4096 - --path fused --reference --validate
run pair-rs gemm_reduce_scatter bf16 8192x8192x4096 - --path fused --reference --validate
run pair-ar all_reduce bf16 8192x8192x8192 - --path fused --reference --validate
timeout 300 bash "$here/anchors/run-torch.sh" > $w/torch.log 2>&1
echo "torch rc=$? at ${SECONDS}s"
} 2>&1 | tee -a $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
