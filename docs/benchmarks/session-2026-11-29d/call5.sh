#!/usr/bin/env bash
# Session 2026-11-29d, call 5 on one H200: the build as committed (the all-scatter's own copy by TMA).
# 1. gpu-run.sh gemm: the anchor run-gemm.sh, then the 12 shapes in both types, validated, beside cuBLAS timed alike.
# 2. GemmGpuTest: validatesAgainstCublas (every fused collective, 1-3 PEs, incl. the new TMA-clipping all-scatter
#    case) and thousandCallsBackToBack.
# 3. Issue 13's fused kernels against the shards alone, both PEs on the GPU under MPS, bf16, 600 timed calls
#    (at the power cap), two rounds, round 1 validated: all-scatter 8192^3 / 8192x4096x8192 alone, all-reduce 8192^3 /
#    8192x8192x4096 alone.
set -u
here=$(pwd)
w=/tmp/o5s29d; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{
OUT=$w/gemm timeout 200 bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s"
tar czf "$out/call5.tgz" -C $w .
OUT=$w/tests timeout 260 bash gpu-run.sh classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack(java.lang.String, java.lang.String, java.lang.String)" \
  > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s: $(grep -E 'tests (successful|failed)' $w/tests.log | tr -s ' ' | tr '\n' ' ')"
tar czf "$out/call5.tgz" -C $w .
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
g() { # name collective shape [options]
  local name=$1 c=$2 shape=$3; shift 3
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype bf16 --iters 600 "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s:" \
    "$(tail -n +2 $w/$name.csv 2>/dev/null | cut -d, -f3-6,8 | tr '\n' ' ')"
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g as-alone-$r none 8192x4096x8192 "${v[@]}"
  g as-fused-$r all_scatter 8192x8192x8192 --path fused "${v[@]}"
  g ar-alone-$r none 8192x8192x4096 "${v[@]}"
  g ar-fused-$r all_reduce 8192x8192x8192 --path fused "${v[@]}"
done
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
