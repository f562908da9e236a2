#!/usr/bin/env bash
# Session 2026-11-28 (twenty-second), call 6 on 4 x H200, the final build: the own-rows-last tile order on 4 PEs (one
# per GPU) against the build before (rounds; before/gemm-ext-before.jar first on the class path), interleaved over
# two rounds, round 1 validated: the two-shot all-reduce (automatic here) and GEMM + reduce-scatter.
set -u
here=$(pwd)
w=/tmp/o6; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -5; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name build dtype collective shape [GemmMain options]
  local name=$1 build=$2 dt=$3 c=$4 shape=$5; shift 5
  local cp="$here/lib/*:$here/mpi.jar"; [ $build = before ] && cp="$here/before/gemm-ext-before.jar:$cp"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 4 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
ab() { local name=$1; shift; g $name-before before "$@" --path fused; g $name-after after "$@" --path fused; }
{
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  ab ar-bf16-4k-$r bf16 all_reduce 8192x8192x4096 "${v[@]}"
  ab ar-fp16-8k-$r fp16 all_reduce 8192x8192x8192 "${v[@]}"
  ab rs-bf16-4k-$r bf16 gemm_reduce_scatter 8192x8192x4096 "${v[@]}"
  tar czf "$out/call6.tgz" -C $w .
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
