#!/usr/bin/env bash
# Session 2026-11-29c, call 4 on one H200 (issue 13): with the tiles stored by TMA (commit 92a9f2a), do other tiles
# or clusters of 2 now beat the heuristic's choice? One shape and option set per process, bf16, validated, cuBLAS
# timed alike, two rounds.
set -u
here=$(pwd)
w=/tmp/o4s29c; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # name shape [options]
  local name=$1 shape=$2; shift 2
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes "$shape" --dtype bf16 --iters 20 --warmup 5 --validate --reference \
    "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) $(tail -n +2 $w/$name.csv | cut -d, -f9,11 | tr '\n' ' ') at ${SECONDS}s"
}
{
for r in 1 2; do
  for o in "2048x2048x2048" "2048x2048x2048 --tile 128x192x64" \
           "5120x5120x2048" "5120x5120x2048 --tile 128x192x64" "5120x5120x2048 --cluster 2" \
           "8192x8192x4096" "8192x8192x4096 --cluster 2" "8192x8192x8192" "8192x8192x8192 --cluster 2" \
           "3840x3840x4096" "3840x3840x4096 --tile 128x256x64" "1536x6144x8192" "1536x6144x8192 --tile 128x256x64"; do
    set -- $o; s=$1; shift
    g "$s$(echo "$*" | tr -d ' -')-$r" $s "$@"
  done
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
