#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth), call G on 2 x H200, the final build: the automatic path with a GPU per PE
# (GemmMain without --path, beside the reference in the same run, validated), then GemmGpuTest's new case for
# PEs sharing a GPU and ApiTest (GpuBackend's device exchange changed), and the debug-trap cases.
set -u
here=$(pwd)
w=/tmp/oG; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt
SECONDS=0
for case in "all_reduce bf16 4096x4096x4096" "gemm_reduce_scatter bf16 4096x4096x4096" "all_gather_gemm fp16 4096x4096x4096" \
            "all_scatter fp16 2048x2048x2048"; do
  set -- $case
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=2G timeout 90 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $1 --shapes $3 --dtype $2 --reference --validate --csv $w/auto.csv > $w/auto-$1.log 2>&1
  echo "auto $1 rc=$? PASS=$(grep -c PASS $w/auto-$1.log) at ${SECONDS}s: $(tail -1 $w/auto.csv | cut -d, -f1-5,8,10,12) $(tail -1 $w/auto.csv | grep -o 'on 2 PEs: [a-z]* [a-z0-9x]*')"
done 2>&1 | tee $w/auto.txt
tar czf "$out/callG.tgz" -C $w .
OUT=$w timeout 360 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.ApiTest \
  --select-method 'org.jshmem.it.gpu.GemmGpuTest#autoPathWherePesShareAGpu(java.lang.String, java.lang.String, java.lang.String)' \
  > $w/tests.log 2>&1
echo "tests rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callG.tgz" -C $w .
