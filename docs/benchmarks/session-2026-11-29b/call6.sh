#!/usr/bin/env bash
# Session 2026-11-29b, call 6 on one H200 (issue 13): the wave-quantised shapes in a warm GPU (after two 8192^3
# cases in the same process, as in gpu-run.sh gemm's list), single CTAs against clusters of 2 (B multicast: fewer
# bytes from L2 under the power limit), alternated, three rounds, bf16, validated, cuBLAS timed alike.
set -u
here=$(pwd)
w=/tmp/o6s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # name cluster
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes 8192x8192x8192,8192x8192x8192,3840x3840x4096,1536x6144x8192,5120x5120x2048 --dtype bf16 --iters 20 \
    --warmup 5 --validate --reference --cluster $2 --csv $w/$1.csv > $w/$1.log 2>&1
  echo "$1 rc=$? PASS=$(grep -c PASS $w/$1.log) FAIL=$(grep -c FAIL $w/$1.log) at ${SECONDS}s"
}
{ nvidia-smi --query-gpu=name,power.limit,temperature.gpu --format=csv
for r in 1 2 3; do g c1-warm-$r 1; g c2-warm-$r 2; done; } 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
