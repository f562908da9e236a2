#!/usr/bin/env bash
# Session 2026-11-29e, call 3 on one H200, the build of calls 1-2 (Java messages aside):
# 1. The four fused forms with B stored n x k against B k x n, 2 PEs sharing the GPU under MPS (one-GPU figures,
#    not NVLink ones), each beside its reference path (cuBLAS + jshmem's collective), validated, 20 timed calls:
#    seed 001's all-gather + GEMM fp16 8192x11008x4096 (its weight is [N/2, K] per PE), all-scatter fp16 8192^3,
#    GEMM + reduce-scatter bf16 8192x8192x4096, all-reduce bf16 8192^3.
# 2. The GEMM alone, B n x k against k x n, alternated over two rounds, bf16, 200 timed calls, three shapes.
set -u
here=$(pwd)
w=/tmp/o3s29e; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # name np collective dtype shapes [options]
  local name=$1 np=$2 c=$3 dt=$4 shapes=$5; shift 5
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np $np --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes "$shapes" --dtype $dt "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s:" \
    "$(tail -n +2 $w/$name.csv 2>/dev/null | cut -d, -f1-5,8,9,10,11 | tr '\n' ' ' | cut -c1-400)"
}
{
for r in 1 2; do
  for l in nk kn; do
    t=(); [ $l = nk ] && t=(--trans-b)
    g alone-$l-r$r 1 none bf16 8192x8192x8192,3840x3840x4096,128x8192x8192 --iters 200 --warmup 5 "${t[@]}"
  done
done
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
for l in nk kn; do
  t=(); [ $l = nk ] && t=(--trans-b)
  g ag-$l 2 all_gather_gemm fp16 8192x11008x4096 --path fused --reference --validate --iters 20 "${t[@]}"
  g as-$l 2 all_scatter fp16 8192x8192x8192 --path fused --reference --validate --iters 20 "${t[@]}"
  g rs-$l 2 gemm_reduce_scatter bf16 8192x8192x4096 --path fused --reference --validate --iters 20 "${t[@]}"
  g ar-$l 2 all_reduce bf16 8192x8192x8192 --path fused --reference --validate --iters 20 "${t[@]}"
done
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
