#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 3 on 2 x H200: the all-scatter's shard alone (fp16 8192x4096x8192) on each GPU
# by itself and on both at once, jshmem (GemmMain, 200 calls back to back) beside cuBLAS (anchor_extra.py, REPS=200),
# two rounds interleaved. Is the shard slower than cuBLAS on this machine, and do two busy GPUs slow it?
set -u
# anchor_extra.py is ../../session-2026-11-28k/anchor_extra.py, copied into .devpack beside this script.
here=$(pwd)
w=/tmp/o3; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
PY=/opt/torch/.venv/bin/python
SH=8192x4096x8192
nvidia-smi --query-gpu=index,name,power.limit,clocks.max.sm,temperature.gpu --format=csv > $w/machine.txt 2>&1
SECONDS=0
j() { # name np [env...]
  local name=$1 np=$2; shift 2
  env "$@" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 100 mpirun -np $np --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes $SH --dtype fp16 --path fused --iters 200 > $w/$name.log 2>&1
  echo "$name rc=$? at ${SECONDS}s: $(grep -E '^none ' $w/$name.log)"
}
t() { # name gpu
  CUDA_VISIBLE_DEVICES=$2 REPS=200 DTYPES=fp16 $PY "$here/anchor_extra.py" $SH > $w/$1.csv 2>&1
  echo "$1 at ${SECONDS}s: $(tail -1 $w/$1.csv)"
}
{
for r in 1 2; do
  t cublas-gpu0-r$r 0; j jshmem-gpu0-r$r 1 CUDA_VISIBLE_DEVICES=0
  t cublas-gpu1-r$r 1; j jshmem-gpu1-r$r 1 CUDA_VISIBLE_DEVICES=1
  t cublas-both0-r$r 0 & t cublas-both1-r$r 1; wait
  j jshmem-both-r$r 2
done
nvidia-smi --query-gpu=index,temperature.gpu,power.draw --format=csv
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
