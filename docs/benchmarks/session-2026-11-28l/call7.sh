#!/usr/bin/env bash
# Session 2026-11-28 (twenty-second), call 7 on 2 x H200, the final build (call 6 found the own-rows-last order
# 8-10% slower for GEMM + reduce-scatter on 4 GPUs, so it keeps its rounds; the two-shot all-reduce takes its own
# rows last). A: one PE per GPU, the final build against the build before (rounds for both), interleaved, validated.
# B: the fused forms whose order changed or whose rows end inside tiles, validated, on 2 and 3 PEs (3 PEs: two on
# GPU 0 under MPS), and 1000 all-reduces back to back, validated after.
set -u
here=$(pwd)
w=/tmp/o7; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name build np dtype collective shape [GemmMain options]
  local name=$1 build=$2 np=$3 dt=$4 c=$5 shape=$6; shift 6
  local cp="$here/lib/*:$here/mpi.jar"; [ $build = before ] && cp="$here/before/gemm-ext-before.jar:$cp"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np $np --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
{
echo "== A: 2 x H200, one PE per GPU"
for b in before after; do g a-ar-bf16-$b $b 2 bf16 all_reduce 8192x8192x8192 --path fused --validate; done
for b in before after; do g a-rs-bf16-$b $b 2 bf16 gemm_reduce_scatter 8192x8192x4096 --path fused --validate; done
for b in before after; do g a-ar-fp16-$b $b 2 fp16 all_reduce 8192x8192x8192 --path fused; done
echo "== B: validations"
JSHMEM_GEMM_ALLREDUCE=two_shot g b-ar-2pe-ragged after 2 fp16 all_reduce 1000x1024x1024 --path fused --validate
g b-rs-2pe-ragged after 2 fp16 gemm_reduce_scatter 1000x1024x1024 --path fused --validate
. ./one-gpu.sh
mps_start
JSHMEM_GEMM_ALLREDUCE=two_shot g b-ar-3pe after 3 fp16 all_reduce 2600x1536x1024 --path fused --validate
g b-rs-3pe after 3 bf16 gemm_reduce_scatter 3072x1536x1536 --path fused --validate
mps_stop
JSHMEM_GEMM_ALLREDUCE=two_shot g b-ar-1000 after 2 bf16 all_reduce 4096x4096x4096 --path fused --back-to-back 1000 --validate
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
