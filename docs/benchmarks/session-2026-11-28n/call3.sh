#!/usr/bin/env bash
# Session 2026-11-28n, call 3 on one H200: the owner of a reduce-scatter or two-shot all-reduce tile adds the peers'
# partials to its accumulators in registers (JGEMM_FOLD_PEERS=1, new) against the sum over the output tile
# (-DJGEMM_FOLD_PEERS=0, as before), both PEs on the GPU under MPS, bf16, 400 calls, two rounds; then the GEMM
# alone beside run-gemm.sh (cuBLAS) in the same run (gpu-run.sh gemm, 24 cases validated) and GemmGpuTest's
# validations and 1000-call cases on the new default.
set -u
here=$(pwd)
w=/tmp/o3; mkdir -p $w/gemm
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # name compile-options iters dtype collective shape [options]
  local name=$1 opts=$2 it=$3 dt=$4 c=$5 shape=$6; shift 6
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --iters $it "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
OLD="-DJGEMM_FOLD_PEERS=0"
{
mps_start
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g alone-$r "" 400 bf16 none 8192x8192x4096
  g ar-old-$r "$OLD" 400 bf16 all_reduce 8192x8192x8192 --path fused
  g ar-new-$r "" 400 bf16 all_reduce 8192x8192x8192 --path fused "${v[@]}"
  g rs-old-$r "$OLD" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused
  g rs-new-$r "" 400 bf16 gemm_reduce_scatter 8192x8192x8192 --path fused "${v[@]}"
  tar czf "$out/call3.tgz" -C $w .
done
mps_stop
OUT=$w/gemm timeout 150 bash "$here/gpu-run.sh" gemm > $w/gemm/run.log 2>&1
echo "gemm rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/gemm/gemm-alone.log) FAIL=$(grep -c FAIL $w/gemm/gemm-alone.log)"
tar czf "$out/call3.tgz" -C $w .
s="java.lang.String"
OUT=$w/tests timeout 250 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
