#!/usr/bin/env bash
# Session 2026-11-29, call 8 on one H200 (issue 13): the committed tile choice (128x64 for one-row GEMMs filling a
# wave, 128x128 where its waves are a quarter fuller): GemmGpuTest's validations against cuBLAS and the new tile's
# cases; then 256x8192x8192 on the automatic choice beside cuBLAS timed alike.
set -u
here=$(pwd)
w=/tmp/o8s29; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
s="java.lang.String"
{
OUT=$w/tests timeout 330 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#skinnyTileValidates(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
tar czf "$out/call8.tgz" -C $w .
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 60 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
  --shapes 256x8192x8192,256x8192x4096 --dtype bf16 --iters 20 --warmup 5 --validate --reference --csv $w/auto256.csv > $w/auto256.log 2>&1
echo "auto256 rc=$? PASS=$(grep -c PASS $w/auto256.log) at ${SECONDS}s: $(tail -2 $w/auto256.csv | cut -d, -f3-5,9,11 | tr '\n' ' ')"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call8.tgz" -C $w .
