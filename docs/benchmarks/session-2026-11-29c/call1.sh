#!/usr/bin/env bash
# Session 2026-11-29c, call 1 on one H200 (issue 13): the finished tile published under the next unit's first
# products (JGEMM_SM90_DEFER, the GEMM alone) against the build before (base) and against an upper bound that
# drops the tile (noepi: no epilogue at all, so its validation fails). bf16, cuBLAS timed alike (--reference), two
# rounds interleaved. Then GemmGpuTest's plain-GEMM validations on the deferring build.
set -u
here=$(pwd)
w=/tmp/o1s29c; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # variant name dtype shapes [options]
  local v=$1 name=$2 dt=$3 shapes=$4; shift 4
  local cp="$here/lib/*:$here/mpi.jar"; [ $v != defer ] && cp="$here/variant/$v.jar:$cp"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes "$shapes" --dtype $dt --iters 20 --warmup 5 --validate --reference \
    "$@" --csv $w/$v-$name.csv > $w/$v-$name.log 2>&1
  echo "$v $name rc=$? PASS=$(grep -c PASS $w/$v-$name.log) FAIL=$(grep -c FAIL $w/$v-$name.log) at ${SECONDS}s"
}
S=2048x2048x2048,5120x5120x2048,3840x3840x4096,1536x6144x8192,8192x8192x4096,8192x8192x8192,256x8192x8192,128x8192x8192
{
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv
for r in 1 2; do
  for v in base defer noepi; do g $v auto-$r bf16 $S; done
done
T=org.jshmem.it.gpu.GemmGpuTest
OUT=$w/junit timeout 240 bash gpu-run.sh classes \
  --select-method "$T#validatesAgainstCublas(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "$T#clustersOfTwoValidate(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  --select-method "$T#skinnyTileValidates(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)" \
  > $w/tests.log 2>&1
echo "tests rc=$? $(grep -E 'tests (successful|failed)' $w/tests.log | tr -s ' ' | tr '\n' ' ') at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
