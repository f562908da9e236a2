#!/usr/bin/env bash
# Session 2026-11-29e, call 2 on one H200, the build of call 1:
# 1. GemmGpuTest validatesAgainstCublas (20 cases: every fused form, both all-scatter transports) after the
#    all-scatter's stamp helper moved into jgemm_epilogue.h.
# 2. gpu-run.sh gemm: the cuBLAS anchor (run-gemm.sh), then the GEMM alone (B k x n) on its 12 shapes, both types,
#    validated, beside cuBLAS timed alike (--reference).
# 3. B stored n x k on the same 12 shapes, both types, validated, beside cuBLAS's transposed B timed alike.
# 4. The fused all-scatter 8192^3 bf16 against its shard 8192x4096x8192 alone, 2 PEs sharing the GPU under MPS,
#    600 timed calls, alone first then fused then alone.
set -u
here=$(pwd)
w=/tmp/o2s29e; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # name np collective dtype shapes [options]
  local name=$1 np=$2 c=$3 dt=$4 shapes=$5; shift 5
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np $np --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes "$shapes" --dtype $dt "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s:" \
    "$(tail -n +2 $w/$name.csv 2>/dev/null | cut -d, -f1-5,8,9,10,11 | tr '\n' ' ' | cut -c1-400)"
}
{
M=org.jshmem.it.gpu.GemmGpuTest
S="(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)"
OUT=$w/junit timeout 240 bash gpu-run.sh classes --select-method "$M#validatesAgainstCublas$S" > $w/junit.log 2>&1
echo "junit rc=$? at ${SECONDS}s: $(grep -E 'tests (successful|failed)' $w/junit.log | tr -s ' ' | tr '\n' ' ')"
OUT=$w/gemm timeout 150 bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s"
for dt in bf16 fp16; do
  g nk-$dt 1 none $dt anchor --trans-b --validate --reference --iters 20 --warmup 5
done
tar czf "$out/call2.tgz" -C $w .
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
g as-alone-1 2 none bf16 8192x4096x8192 --iters 600
g as-fused 2 all_scatter bf16 8192x8192x8192 --path fused --iters 600
g as-alone-2 2 none bf16 8192x4096x8192 --iters 600
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
