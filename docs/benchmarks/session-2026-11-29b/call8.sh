#!/usr/bin/env bash
# Session 2026-11-29b, call 8 on one H200 (issue 13): which predecessor slows 1536x6144x8192 in one process (call 7:
# 673-686 after the list, 774-776 alone, cuBLAS alike 815-822 in both). Each case one process, bf16, validated.
set -u
here=$(pwd)
w=/tmp/o8s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # name shapes [options]
  local n=$1 s=$2; shift 2
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes "$s" --dtype bf16 --iters 20 --warmup 5 --validate --reference "$@" --csv $w/$n.csv > $w/$n.log 2>&1
  echo "$n PASS=$(grep -c PASS $w/$n.log) FAIL=$(grep -c FAIL $w/$n.log) at ${SECONDS}s"
}
L=8192x8192x8192,4096x4096x4096,1024x8192x8192,8192x4096x8192,8192x8192x4096,8192x5504x4096,3840x3840x4096
{
g twice 1536x6144x8192,1536x6144x8192
g after-k4096 8192x8192x4096,8192x5504x4096,1536x6144x8192
g after-3840 3840x3840x4096,1536x6144x8192
g after-1024 1024x8192x8192,1536x6144x8192
g list-200 $L,1536x6144x8192 --iters 200
g after-8192 8192x8192x8192,1536x6144x8192
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call8.tgz" -C $w .
