#!/usr/bin/env bash
# Session 2026-11-27c, one H200, 2 PEs sharing it under MPS: issue 13's "fused within 5% of the GEMM
# alone". Each PE's shard alone on both PEs at once, then the fused form, two rounds interleaved,
# default timing (20 calls after 5), validated.
set -u
here=$(pwd); w=/tmp/o; mkdir -p $w; out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $w/machine.txt
cp="$here/lib/*:$here/mpi.jar"
. ./one-gpu.sh
mps_start
g() { # name collective shape
  bash gpu-run.sh cmd env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $2 --shapes $3 --dtype bf16 --validate --csv $w/fused-vs-alone.csv > $w/$1.log 2>&1
  echo "$1 rc=$? PASS=$(grep -c PASS $w/$1.log): $(tail -1 $w/fused-vs-alone.csv | cut -d, -f1-5,8)"
}
for r in 1 2; do
  g alone-as-$r none 8192x4096x8192
  g scatter-$r all_scatter 8192x8192x8192
  g alone-ar-$r none 8192x8192x4096
  g allreduce-$r all_reduce 8192x8192x8192
done
mps_stop
tar czf "$out/call17.tgz" -C $w .
