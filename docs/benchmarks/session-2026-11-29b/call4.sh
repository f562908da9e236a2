#!/usr/bin/env bash
# Session 2026-11-29b, call 4 on one H200: the committed build (128x128 tiles with 5 stages; Kernel.launchChained).
# GemmGpuTest's validations (every fused collective, clusters of 2, the thin tiles, 1000 calls back to back) and
# DeviceModuleTest; the 128x128 shapes in both types; tile and split overrides on 2048^3 and 128x8192x8192; then gpu-run.sh gemm: the anchor run-gemm.sh and the 12
# shapes in bf16 and fp16, validated, beside cuBLAS timed alike.
set -u
here=$(pwd)
w=/tmp/o4s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
T=org.jshmem.it.gpu.GemmGpuTest
OUT=$w/junit bash gpu-run.sh classes --select-class org.jshmem.it.gpu.DeviceModuleTest \
  --select-method "$T#validatesAgainstCublas(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "$T#clustersOfTwoValidate(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "$T#skinnyTileValidates(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "$T#thousandCallsBackToBack(java.lang.String, java.lang.String, java.lang.String)" > $w/tests.log 2>&1
echo "tests rc=$? $(grep -E 'tests (successful|failed)' $w/tests.log | tr -s ' ' | tr '\n' ' ') at ${SECONDS}s" | tee $w/summary.txt
for t in bf16 fp16; do
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes 256x8192x8192,256x8192x4096 --dtype $t --iters 20 --warmup 5 --validate --reference \
    --csv $w/t128-$t.csv > $w/t128-$t.log 2>&1
  echo "t128 $t rc=$? PASS=$(grep -c PASS $w/t128-$t.log) FAIL=$(grep -c FAIL $w/t128-$t.log) at ${SECONDS}s" | tee -a $w/summary.txt
done
for o in "2048x2048x2048 --tile 128x128x64 --split stream_k" "2048x2048x2048 --tile 128x128x64 --split tail" \
         "2048x2048x2048 --tile 128x192x64" "2048x2048x2048" "128x8192x8192 --tile 128x128x64 --split stream_k" \
         "128x8192x8192"; do
  set -- $o; s=$1; shift; n=o-$s$(echo "$*" | tr -d ' -')
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes $s --dtype bf16 --iters 20 --warmup 5 --validate --reference "$@" --csv $w/$n.csv > $w/$n.log 2>&1
  echo "$n rc=$? PASS=$(grep -c PASS $w/$n.log) FAIL=$(grep -c FAIL $w/$n.log) at ${SECONDS}s" | tee -a $w/summary.txt
done
OUT=$w/gemm bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s" | tee -a $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
