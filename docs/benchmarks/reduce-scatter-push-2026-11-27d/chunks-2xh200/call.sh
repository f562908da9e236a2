#!/usr/bin/env bash
# Session 2026-11-27d, 2 GPUs: the split-role pushed reduce-scatter with larger chunks and other
# pusher shares (experiment knobs JSHMEMK_EXP_CHUNK bytes, JSHMEMK_EXP_PUSHERS percent of the grid)
# against the read kernel, three rounds interleaved.
set -u
here=$(pwd)
w=/tmp/o; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/machine.txt 2>&1; cat $w/machine.txt
cp="$here/lib/*:$here/mpi.jar"
bench() { # name env...
  local name=$1; shift
  bash gpu-run.sh cmd env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G "$@" timeout 100 mpirun -np 2 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.gpu.GpuCollectivesBench "$w/coll-$name.csv" 64M 3 > "$w/coll-$name.log" 2>&1
  echo "$name rc=$?: $(grep -E '^reducescatter_sum_float,stream,(4194304|16777216|67108864)' "$w/coll-$name.csv" | cut -d, -f3,5,6 | tr '\n' ' ')"
  grep -i "wrong\|mismatch\|expected" "$w/coll-$name.log" | head -3
}
SECONDS=0
for round in 1 2 3; do
  bench read-$round JSHMEM_GPU_REDUCESCATTER_PUSH_MIN=0
  bench c64k-p50-$round JSHMEMK_EXP_CHUNK=65536 JSHMEMK_EXP_PUSHERS=50
  bench c256k-p50-$round JSHMEMK_EXP_CHUNK=262144 JSHMEMK_EXP_PUSHERS=50
  bench c1m-p50-$round JSHMEMK_EXP_CHUNK=1048576 JSHMEMK_EXP_PUSHERS=50
  bench c256k-p67-$round JSHMEMK_EXP_CHUNK=262144 JSHMEMK_EXP_PUSHERS=67
  bench c256k-p33-$round JSHMEMK_EXP_CHUNK=262144 JSHMEMK_EXP_PUSHERS=33
  echo "round $round done in ${SECONDS}s"
done
tar czf "$out/call21.tgz" -C $w .
