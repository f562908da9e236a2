#!/usr/bin/env bash
# Session 2026-11-28 (eighteenth), call G on one H200: all-gather + GEMM without copying the PE's own rows into
# the gathered A (Team.collectOthersSignalOnStream, when every PE's block starts on a tile row) against the
# build before (before/*.jar first on the class path), 2 PEs under MPS, fp16 seed shape 8192x11008x4096,
# 600 timed calls, three rounds interleaved, round 1 validated; then GpuStreamOpsTest (the new collective
# checked) and GemmGpuTest's cuBLAS validations and back-to-back cases (every PE on the GPU under MPS).
set -u
here=$(pwd)
w=/tmp/oG; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # name build [GemmMain options]
  local name=$1 build=$2; shift 2
  local cp="$here/lib/*:$here/mpi.jar"; [ $build = before ] && cp="$here/before/shmem-core-before.jar:$here/before/gemm-ext-before.jar:$cp"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 90 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c all_gather_gemm --shapes 8192x11008x4096 --dtype fp16 --iters 600 --path fused \
    "$@" --csv $w/ag.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) at ${SECONDS}s: $(tail -1 $w/ag.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
for r in 1 2 3; do
  v=(); [ $r = 1 ] && v=(--validate)
  g ag-before-$r before "${v[@]}"
  g ag-new-$r new "${v[@]}"
  tar czf "$out/callG.tgz" -C $w .
done 2>&1 | tee $w/ag.txt
mps_stop
unset CUDA_VISIBLE_DEVICES
s="java.lang.String"
OUT=$w timeout 330 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callG.tgz" -C $w .
