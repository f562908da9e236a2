#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth), call C on 2 x H200: the output tiles stored with an L2 evict-first
# policy (-DJGEMM_STORE_EVICT_FIRST=1: the consumers' bulk copies of C and the sender's stores to the
# peers), against the default, interleaved. fp16, the issue-19 all-scatter case: each PE's shard alone
# (8192x4096x8192) and the fused all-scatter of 8192^3, one PE per GPU (3 rounds), then both PEs on GPU 0
# under MPS (issue 13, bf16, 2 rounds). The first round of each variant validates against cuBLAS.
set -u
here=$(pwd)
w=/tmp/oC; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
g() { # tag name options collective shape dtype [GemmMain options]
  local tag=$1 name=$2 opts=$3 c=$4 shape=$5 dt=$6; shift 6
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 90 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt "$@" --csv $w/$tag.csv > $w/$tag-$name.log 2>&1
  echo "$tag $name rc=$? PASS=$(grep -c PASS $w/$tag-$name.log) at ${SECONDS}s: $(tail -1 $w/$tag.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
for r in 1 2 3; do
  v=(); [ $r = 1 ] && v=(--validate)
  g two-gpus alone-$r "" none 8192x4096x8192 fp16 "${v[@]}"
  g two-gpus alone-ef-$r "-DJGEMM_STORE_EVICT_FIRST=1" none 8192x4096x8192 fp16 "${v[@]}"
  g two-gpus fused-$r "" all_scatter 8192x8192x8192 fp16 --path fused "${v[@]}"
  g two-gpus fused-ef-$r "-DJGEMM_STORE_EVICT_FIRST=1" all_scatter 8192x8192x8192 fp16 --path fused "${v[@]}"
  tar czf "$out/callC.tgz" -C $w .
done 2>&1 | tee $w/two-gpus.txt
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g one-gpu alone-$r "" none 8192x4096x8192 bf16 "${v[@]}"
  g one-gpu alone-ef-$r "-DJGEMM_STORE_EVICT_FIRST=1" none 8192x4096x8192 bf16 "${v[@]}"
  g one-gpu fused-$r "" all_scatter 8192x8192x8192 bf16 --path fused "${v[@]}"
  g one-gpu fused-ef-$r "-DJGEMM_STORE_EVICT_FIRST=1" all_scatter 8192x8192x8192 bf16 --path fused "${v[@]}"
  tar czf "$out/callC.tgz" -C $w .
done 2>&1 | tee $w/one-gpu.txt
mps_stop
tar czf "$out/callC.tgz" -C $w .
