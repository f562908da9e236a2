#!/usr/bin/env bash
# Session 2026-11-29b, call 2 on one H200 (issue 13). Part A: the candidate from call 1 (c1: one wgmma group in
# flight on tiles with 5 or more stages, 128x128 tiles with 5 stages) against the build as committed (base) and
# against 5 stages without the group in flight (s5n), on the shapes those tiles run; bf16, validated, cuBLAS timed
# alike, two rounds. Part B: the base build's 128x192 against 128x256 tiles on the wave-quantised shapes, one shape
# per process (so that no shape follows a heavier one), alternated, three rounds.
set -u
here=$(pwd)
w=/tmp/o2s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # variant name dtype shapes [options]
  local v=$1 name=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/variant/$v.jar:$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes "$shapes" --dtype $dt --iters 20 --warmup 5 --validate --reference \
    "$@" --csv $w/$v-$name.csv > $w/$v-$name.log 2>&1
  echo "$v $name rc=$? PASS=$(grep -c PASS $w/$v-$name.log) FAIL=$(grep -c FAIL $w/$v-$name.log) at ${SECONDS}s"
}
{
for r in 1 2; do
  for v in base c1 s5n; do
    g $v auto-$r bf16 128x8192x8192,256x8192x8192,256x8192x4096,512x8192x8192
    g $v t128-$r bf16 5120x5120x2048,1536x6144x8192,2048x2048x2048 --tile 128x128x64
  done
done
for r in 1 2 3; do
  for s in 5120x5120x2048 3840x3840x4096 1536x6144x8192; do
    for t in 128x192x64 128x256x64; do
      g base B$s-$t-bf16-$r bf16 $s --tile $t
      [ $s = 5120x5120x2048 ] && g base B$s-$t-fp16-$r fp16 $s --tile $t
    done
  done
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
