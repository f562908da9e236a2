#!/usr/bin/env bash
# Session 2026-11-29d, call 3 on one H200 (issue 13): what limits GEMMs of one to eight tile rows (128x8192x8192
# reaches 0.88-0.92 of cuBLAS, which runs clusters along N sharing A by multicast). A probe build (call3/probe-a.patch,
# variant/probe.jar first on the class path; wrong results, timing only) loads A on every JGEMM_PROBE_A_EVERY-th
# stage only (2: half of A's bytes from L2, what a pair sharing A would read; 0: none). Against the build as
# committed (base, validated). bf16, 50 timed calls, cuBLAS timed alike, two rounds alternated.
set -u
here=$(pwd)
w=/tmp/o3s29d; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
S=128x8192x8192,256x8192x8192,512x8192x8192,1024x8192x8192,128x16384x8192,128x8192x16384
g() { # name jar-prefix compile-options [options]
  local name=$1 pre=$2 opt=$3; shift 3
  JSHMEM_GEMM_COMPILE_OPTIONS=$opt JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 150 mpirun -np 1 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$pre$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes $S --dtype bf16 --iters 50 --reference "$@" \
    --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) at ${SECONDS}s: $(tail -n +2 $w/$name.csv | cut -d, -f3-5,9,11 | tr '\n' ' ')"
}
P="$here/variant/probe.jar:"
{
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g base-$r "" "" "${v[@]}"
  g half-$r "$P" -DJGEMM_PROBE_A_EVERY=2
  g none-$r "$P" -DJGEMM_PROBE_A_EVERY=0
  g quarter-$r "$P" -DJGEMM_PROBE_A_EVERY=4
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
