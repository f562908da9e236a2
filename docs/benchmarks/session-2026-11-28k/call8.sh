#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 8 on 4 x H200, one PE per GPU: what the 4-PE all-scatter's 44% over its
# shard alone is made of. The all-scatter by the kernel's stores (automatic), the same with the peers' copies not
# stored but still stamped (JGEMM_SEND_STORES=0 compiled in; timing only, wrong results), and the shard alone, all
# with the same warm-up work, interleaved over two rounds; fp16 8192^3 (shard 8192x2048x8192).
set -u
here=$(pwd)
w=/tmp/o8; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -6; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective shape [options]
  local name=$1 c=$2 sh=$3; shift 3
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 90 mpirun -np 4 --bind-to none -x JSHMEM_GEMM_COMPILE_OPTIONS java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $sh --dtype fp16 "$@" --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s $(grep -E "^$c " $w/$name.log)"
  tar czf "$out/call8.tgz" -C $w .
}
{
for r in 1 2; do
  JSHMEM_GEMM_COMPILE_OPTIONS= g stores-$r all_scatter 8192x8192x8192
  JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_SEND_STORES=0 g unsent-$r all_scatter 8192x8192x8192
  JSHMEM_GEMM_COMPILE_OPTIONS= g alone-$r none 8192x2048x8192
done
} 2>&1 | tee $w/sweep.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call8.tgz" -C $w .
