#!/usr/bin/env bash
# Session 2026-11-29, call 5 on one H200 (issue 13): a 128x64x64 tile with 8 stages (new variant, n64 wgmma) on
# GEMMs of few rows, where cuBLAS (128x64 tiles, 8 stages) keeps HBM busier (call 4): against the default tile,
# each beside cuBLAS timed alike, validated; then the new tile validated on ragged shapes, Stream-K and fused
# collectives (2 PEs sharing the GPU under MPS).
set -u
here=$(pwd)
w=/tmp/o5s29; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
g() { # name np shapes dtype [options]
  local name=$1 np=$2 shapes=$3 dt=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np $np --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain \
    --shapes "$shapes" --dtype $dt --iters 20 --warmup 5 --validate "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
}
SK=128x8192x8192,256x8192x8192,512x8192x8192,128x4096x8192,256x8192x4096,128x28672x4096
{
for r in 1 2; do
  for t in bf16 fp16; do
    g default-$t-$r 1 $SK $t -c none --reference
    g t64-$t-$r 1 $SK $t -c none --reference --tile 128x64x64
    g t64sk-$t-$r 1 $SK $t -c none --reference --tile 128x64x64 --split stream_k
  done
  tar czf "$out/call5.tgz" -C $w .
done
g ragged-dp 1 1000x999x1001,1152x1000x1032,4096x4096x4096 bf16 -c none --tile 128x64x64 --split data_parallel
g ragged-sk 1 1000x999x1001,1152x1000x1032,4096x4096x4096 fp16 -c none --tile 128x64x64 --split stream_k
. ./one-gpu.sh; mps_start; export CUDA_VISIBLE_DEVICES=0
g fused-as 2 1000x1024x1024,2048x2048x2048 bf16 -c all_scatter --path fused --tile 128x64x64
g fused-ar 2 1000x1024x1024,2048x2048x2048 fp16 -c all_reduce --path fused --tile 128x64x64 --allreduce two_shot
g fused-rs 2 1000x1024x1024 bf16 -c gemm_reduce_scatter --path fused --tile 128x64x64
g fused-ag 2 1000x1024x1024 bf16 -c all_gather_gemm --path fused --tile 128x64x64
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
