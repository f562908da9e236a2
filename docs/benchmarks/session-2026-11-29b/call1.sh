#!/usr/bin/env bash
# Session 2026-11-29b, call 1 on one H200 (issue 13): one wgmma group kept in flight across stages
# (JGEMM_SM90_INFLIGHT) on the tiles with 4 or more stages, and 128x128 tiles with 5 stages, against the build
# as committed. Three gemm-ext jars ahead of lib/ on the class path (variant/*.jar, made from the same commit:
# base = as committed; inflight = the source's JGEMM_SM90_INFLIGHT default (JGEMM_STAGES >= 4); s5 = inflight
# and GpuKernels' 128x128 variant with 5 stages). bf16, validated, cuBLAS timed alike (--reference), two rounds
# interleaved.
set -u
here=$(pwd)
w=/tmp/o1s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # variant name shapes [options]
  local v=$1 name=$2 shapes=$3; shift 3
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/variant/$v.jar:$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes "$shapes" --dtype bf16 --iters 20 --warmup 5 --validate --reference \
    "$@" --csv $w/$v-$name.csv > $w/$v-$name.log 2>&1
  echo "$v $name rc=$? PASS=$(grep -c PASS $w/$v-$name.log) FAIL=$(grep -c FAIL $w/$v-$name.log) at ${SECONDS}s"
}
S=1536x6144x8192,3840x3840x4096,128x8192x8192,256x8192x8192,256x8192x4096,8192x8192x8192,5120x5120x2048,2048x2048x2048
{
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv
for r in 1 2; do
  for v in base inflight s5; do
    g $v auto-$r $S
    g $v t192-$r 5120x5120x2048,8192x8192x4096 --tile 128x192x64
    g $v t128-$r 5120x5120x2048,1536x6144x8192,2048x2048x2048 --tile 128x128x64
    g $v sk-$r 128x8192x8192 --tile 128x128x64 --split stream_k
  done
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
