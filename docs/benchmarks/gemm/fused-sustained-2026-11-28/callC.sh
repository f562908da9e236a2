#!/usr/bin/env bash
# Session 2026-11-28 (eighteenth), call C on one H200: the output type's conversions in hardware in the
# fused sums (jgemm_pack8 / jgemm_unpack8_add), against the build before (before/gemm-ext-before.jar
# first on the class path), both PEs on GPU 0 under MPS, sustained (600 timed calls), two rounds
# interleaved, round 1 validated: all-reduce and GEMM + reduce-scatter 8192^3, bf16 and fp16. Then
# GemmGpuTest (every PE on the GPU under MPS): it ran past this script's 300 s limit (the class takes
# about 350 s) and printed nothing; call D ran its cases that have sums.
set -u
here=$(pwd)
w=/tmp/oC; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # name build dtype collective shape [GemmMain options]
  local name=$1 build=$2 dt=$3 c=$4 shape=$5; shift 5
  local cp="$here/lib/*:$here/mpi.jar"; [ $build = before ] && cp="$here/before/gemm-ext-before.jar:$cp"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --iters 600 --path fused "$@" --csv $w/sums.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) at ${SECONDS}s: $(tail -1 $w/sums.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  for dt in fp16 bf16; do
    for c in all_reduce gemm_reduce_scatter; do
      g $c-$dt-before-$r before $dt $c 8192x8192x8192 "${v[@]}"
      g $c-$dt-new-$r new $dt $c 8192x8192x8192 "${v[@]}"
    done
  done
  tar czf "$out/callC.tgz" -C $w .
done 2>&1 | tee $w/sums.txt
mps_stop
unset CUDA_VISIBLE_DEVICES
OUT=$w timeout 300 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GemmGpuTest > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
tar czf "$out/callC.tgz" -C $w .
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callC.tgz" -C $w .
