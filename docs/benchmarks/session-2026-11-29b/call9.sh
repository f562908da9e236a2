#!/usr/bin/env bash
# Session 2026-11-29b, call 9 on one H200 (issue 13): one wgmma group in flight on the 128x64 tile (8 stages) only.
# GemmGpuTest.skinnyTileValidates (the 128x64 tile alone, with Stream-K fix-ups, in clusters of 2, under fused
# collectives) on the new build; then 128x8192x8192 on the new build (lib/) against the build before it
# (variant/base.jar), alternated, one case per process, validated, cuBLAS timed alike.
set -u
here=$(pwd)
w=/tmp/o9s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
T=org.jshmem.it.gpu.GemmGpuTest
OUT=$w/junit bash gpu-run.sh classes \
  --select-method "$T#skinnyTileValidates(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  > $w/tests.log 2>&1
echo "tests rc=$? $(grep -E 'tests (successful|failed)' $w/tests.log | tr -s ' ' | tr '\n' ' ') at ${SECONDS}s" | tee $w/summary.txt
g() { # variant name dtype
  local cp="$here/lib/*:$here/mpi.jar"; [ $1 = base ] && cp="$here/variant/base.jar:$cp"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 100 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes 128x8192x8192 --dtype $3 --iters 20 --warmup 5 --validate --reference --csv $w/$1-$2.csv > $w/$1-$2.log 2>&1
  echo "$1 $2 PASS=$(grep -c PASS $w/$1-$2.log) FAIL=$(grep -c FAIL $w/$1-$2.log) at ${SECONDS}s"
}
{
for r in 1 2 3; do for v in base inflight; do g $v B128x8192x8192-bf16-$r bf16; done; done
for r in 1 2; do for v in base inflight; do g $v B128x8192x8192-fp16-$r fp16; done; done
} 2>&1 | tee -a $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call9.tgz" -C $w .
