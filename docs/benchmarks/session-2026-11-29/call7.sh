#!/usr/bin/env bash
# Session 2026-11-29, call 7 on one H200 (issue 13): GEMMs of 2-3 tile rows, where the 128x192 tiles the heuristic
# takes fill two thirds of a wave or less: 128x128 tiles (a fuller wave) against the default, beside cuBLAS timed
# alike, validated, two rounds.
set -u
here=$(pwd)
w=/tmp/o7s29; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
g() { # name dtype shapes [options]
  local name=$1 dt=$2 shapes=$3; shift 3
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes "$shapes" --dtype $dt --iters 20 --warmup 5 --validate --reference "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
}
S=256x8192x8192,256x8192x4096,384x8192x8192,256x4096x8192,256x28672x4096
{
for r in 1 2; do
  for t in bf16 fp16; do
    g default-$t-$r $t $S
    g t128-$t-$r $t $S --tile 128x128x64 --split data_parallel
  done
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
