#!/usr/bin/env bash
# Session 2026-11-29e, call 1 on one H200: B stored n x k (--trans-b, BLayout.N_BY_K) and the all-scatter's stamp
# helper shared by both kernels (jgemm_scatter_stored).
# 1. A quick check of B n x k on one PE (Hopper tiles as the heuristic picks them, the portable kernel, and cuBLAS's
#    transposed B on the reference path), validated against cuBLAS; stop there if anything failed.
# 2. GemmGpuTest: transposedBValidatesAgainstCublas (12 cases) and thousandCallsBackToBack (the all-scatter's
#    stores and copy engines after the stamp helper moved).
set -u
here=$(pwd)
w=/tmp/o1s29e; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
q() { # name np collective dtype shapes [options]: B n x k, validated
  local name=$1 np=$2 c=$3 dt=$4 shapes=$5; shift 5
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np $np --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes "$shapes" --dtype $dt --trans-b --validate --iters 3 --warmup 1 "$@" \
    --csv $w/$name.csv > $w/$name.log 2>&1
  local rc=$?
  echo "$name rc=$rc PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  [ $rc = 0 ] && ! grep -q FAIL $w/$name.log
}
{
ok=1
q quick-bf16 1 none bf16 4096x4096x4096,1152x1000x1032,128x8192x8192 --reference || ok=0
q quick-fp16 1 none fp16 1000x999x1001,4096x4096x4096 --reference || ok=0
if [ $ok = 1 ]; then
  M=org.jshmem.it.gpu.GemmGpuTest
  S="(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)"
  OUT=$w/junit timeout 420 bash gpu-run.sh classes --select-method "$M#transposedBValidatesAgainstCublas$S" \
    --select-method "$M#thousandCallsBackToBack(java.lang.String, java.lang.String, java.lang.String)" > $w/junit.log 2>&1
  echo "junit rc=$? at ${SECONDS}s: $(grep -E 'tests (successful|failed)' $w/junit.log | tr -s ' ' | tr '\n' ' ')"
fi
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
