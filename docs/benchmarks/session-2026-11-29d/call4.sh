#!/usr/bin/env bash
# Session 2026-11-29d, call 4 on one H200 (issue 13): L2 cache policies on the TMA loads (call4/l2-hint.patch,
# variant/hint.jar first on the class path): A evict_last (every CTA of a tile row reads it) and/or B evict_first
# (streamed), against the build as committed (base). Call 3 found the skinny GEMMs limited by B's stream from HBM,
# not by A's reads from L2 (no A at all: 128x8192x8192 411 -> 436, cuBLAS 446-457). bf16, 50 timed calls, cuBLAS
# timed alike, the 12 anchor shapes and five skinny ones, two rounds alternated; the variants validated in round 1.
set -u
here=$(pwd)
w=/tmp/o4s29d; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # name shapes jar-prefix compile-options [options]
  local name=$1 shapes=$2 pre=$3 opt=$4; shift 4
  JSHMEM_GEMM_COMPILE_OPTIONS=$opt JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 150 mpirun -np 1 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$pre$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes $shapes --dtype bf16 --iters 50 --reference "$@" \
    --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
}
H="$here/variant/hint.jar:"
K=128x8192x8192,256x8192x8192,512x8192x8192,128x16384x8192,128x8192x16384
{
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  for set in skinny anchor; do
    S=$K; [ $set = anchor ] && S=anchor
    if [ $r = 1 ]; then order="base b1 a2 a2b1"; else order="a2b1 a2 b1 base"; fi
    for x in $order; do
      case $x in
        base) g base-$set-$r $S "" "" ;;
        b1) g b1-$set-$r $S "$H" "-DJGEMM_SM90_HINT_B=1" "${v[@]}" ;;
        a2) g a2-$set-$r $S "$H" "-DJGEMM_SM90_HINT_A=2" "${v[@]}" ;;
        a2b1) g a2b1-$set-$r $S "$H" "-DJGEMM_SM90_HINT_A=2 -DJGEMM_SM90_HINT_B=1" "${v[@]}" ;;
      esac
    done
  done
  tar czf "$out/call4.tgz" -C $w .
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
