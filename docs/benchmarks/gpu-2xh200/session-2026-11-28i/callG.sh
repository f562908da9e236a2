#!/usr/bin/env bash
# Session 2026-11-28 (nineteenth), call G: the build after review mends (the copy-engine all-scatter's offsets
# named in GemmWorkspace, its describe text): the automatic all-scatter 8192^3 fp16 on one PE per GPU,
# validated, then GemmGpuTest's validations and back-to-back cases.
set -u
here=$(pwd)
w=/tmp/oG; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=6G timeout 120 mpirun -np 2 --bind-to none java \
  --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
  org.jshmem.gemm.cli.GemmMain -c all_scatter --shapes 8192x8192x8192 --dtype fp16 --validate > $w/auto-scatter.log 2>&1
echo "auto all-scatter rc=$? at ${SECONDS}s"; grep -E "^all_scatter |PASS|FAIL|copy engines" $w/auto-scatter.log | cut -c1-200
s="java.lang.String"
OUT=$w timeout 280 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callG.tgz" -C $w .
