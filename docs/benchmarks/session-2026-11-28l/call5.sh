#!/usr/bin/env bash
# Session 2026-11-28 (twenty-second), call 5 on 2 x H200, the final build: the fused all-reduce and GEMM +
# reduce-scatter take the PE's own tile rows last (TileRowOrder), against the build before (rounds;
# before/gemm-ext-before.jar first on the class path), interleaved. A: one PE per GPU, two rounds of 20 calls (round
# 1 validated), then 200 calls. B: both PEs on GPU 0 under MPS, 600 calls, with the shard alone. Then GemmGpuTest's
# validations and 1000-call cases, and last the GEMM alone on GPU 0 beside run-gemm.sh (gpu-run.sh gemm).
set -u
here=$(pwd)
w=/tmp/o5; mkdir -p $w/gemm
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name build dtype collective shape [GemmMain options]
  local name=$1 build=$2 dt=$3 c=$4 shape=$5; shift 5
  local cp="$here/lib/*:$here/mpi.jar"; [ $build = before ] && cp="$here/before/gemm-ext-before.jar:$cp"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
ab() { # name dtype collective shape [options]
  local name=$1; shift
  g $name-before before "$@" --path fused
  g $name-after after "$@" --path fused
}
{
echo "== A: 2 x H200, one PE per GPU"
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g a-alone-ar-$r after bf16 none 8192x8192x4096
  ab a-ar-bf16-$r bf16 all_reduce 8192x8192x8192 "${v[@]}"
  ab a-ar-fp16-$r fp16 all_reduce 8192x8192x8192 "${v[@]}"
  ab a-rs-bf16-$r bf16 gemm_reduce_scatter 8192x8192x4096 "${v[@]}"
done
ab a200-ar-fp16 fp16 all_reduce 8192x8192x8192 --iters 200
tar czf "$out/call5.tgz" -C $w .
echo "== B: both PEs on GPU 0 under MPS, 600 calls"
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g b-alone-$r after bf16 none 8192x8192x4096 --iters 600
  ab b-ar-bf16-$r bf16 all_reduce 8192x8192x8192 --iters 600 "${v[@]}"
  ab b-rs-bf16-$r bf16 gemm_reduce_scatter 8192x8192x8192 --iters 600
  ab b-ar-fp16-$r fp16 all_reduce 8192x8192x8192 --iters 600
done
mps_stop
unset CUDA_VISIBLE_DEVICES
} 2>&1 | tee $w/summary.txt
tar czf "$out/call5.tgz" -C $w .
OUT=$w timeout 300 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack(java.lang.String, java.lang.String, java.lang.String)" > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s" | tee -a $w/summary.txt
grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20 | tee -a $w/summary.txt
tar czf "$out/call5.tgz" -C $w .
CUDA_VISIBLE_DEVICES=0 OUT=$w/gemm timeout 200 bash "$here/gpu-run.sh" gemm > $w/gemm/run.log 2>&1
echo "gemm rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/gemm/gemm-alone.log) FAIL=$(grep -c FAIL $w/gemm/gemm-alone.log)" | tee -a $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
