#!/usr/bin/env bash
# Session 2026-11-29c, call 3 on one H200 (issue 13): the GEMM alone's tiles stored by TMA from a swizzled output
# tile (tma), against the per-row bulk copies, each completed, of the build before (rows: the same jar with
# JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_SM90_TMA_STORE=0). Part A: validation of tma on edge shapes (m and n off
# the tile), every tile width, clusters of 2, both types. Part B: tma against rows, bf16, cuBLAS timed alike,
# three rounds interleaved.
set -u
here=$(pwd)
w=/tmp/o3s29c; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # variant name dtype shapes [options]
  local v=$1 name=$2 dt=$3 shapes=$4; shift 4
  local opt=""; [ $v = rows ] && opt=-DJGEMM_SM90_TMA_STORE=0
  JSHMEM_GEMM_COMPILE_OPTIONS=$opt JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes "$shapes" --dtype $dt --iters 20 --warmup 5 --validate --reference \
    "$@" --csv $w/$v-$name.csv > $w/$v-$name.log 2>&1
  echo "$v $name rc=$? PASS=$(grep -c PASS $w/$v-$name.log) FAIL=$(grep -c FAIL $w/$v-$name.log) at ${SECONDS}s"
}
E=1001x1000x1024,4000x3000x1000,130x8200x512,2055x2056x256
{
for dt in bf16 fp16; do
  g tma edge-$dt $dt $E
  for t in 128x64x64 128x128x64 128x192x64 128x256x64; do g tma edge-$t-$dt $dt 1001x1000x1024,2055x2056x256 --tile $t; done
  g tma cluster-$dt $dt 5120x5120x2048,1001x1000x1024 --cluster 2
  g tma sk-$dt $dt 3000x2000x4096 --split stream_k
done
S=2048x2048x2048,3840x3840x4096,5120x5120x2048,8192x8192x4096,1536x6144x8192,8192x8192x8192,128x8192x8192
for r in 1 2 3; do
  for v in rows tma; do g $v auto-$r bf16 $S; done
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
