#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 1 on one H200: the GEMM alone at the tensor-parallel shards of 2 and 4 GPUs
# (8192x2048x8192: 4-GPU all-scatter; 8192x2752x4096: 4-GPU all-gather + GEMM; 8192x8192x2048 / x1024: 4-GPU
# all-reduce / reduce-scatter; 8192x4096x8192: 2-GPU all-scatter) beside cuBLAS timed the same way in the same call,
# then the Hopper kernel's other tiles, clusters and splits at those shapes (fp16), then cuBLAS again.
set -u
here=$(pwd)
w=/tmp/o1; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
PY=/opt/torch/.venv/bin/python
SH=8192x2048x8192,8192x2752x4096,8192x8192x2048,8192x8192x1024,8192x4096x8192
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; } > $w/machine.txt 2>&1
SECONDS=0
bash "$here/anchors/run-gemm.sh" > $w/anchor-cublas.csv 2>&1
$PY "$here/anchor_extra.py" $SH > $w/anchor-extra-1.csv 2>&1
echo "anchors at ${SECONDS}s"; cat $w/anchor-extra-1.csv
g() { # name dtype [options]
  local name=$1 dt=$2; shift 2
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 120 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes $SH --dtype $dt --iters 20 --warmup 5 "$@" --csv $w/sweep-$name.csv > $w/$name.log 2>&1
  echo "== $name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^none " $w/$name.log
  tar czf "$out/call1.tgz" -C $w .
}
{
g default-bf16 bf16 --validate
g default-fp16 fp16 --validate
g t192 fp16 --tile 128x192x64 --validate
g t128 fp16 --tile 128x128x64 --validate
g cluster2 fp16 --cluster 2 --validate
g sk fp16 --split stream_k
g tail fp16 --split tail
g default-fp16-b fp16
} 2>&1 | tee $w/sweep.txt
$PY "$here/anchor_extra.py" $SH > $w/anchor-extra-2.csv 2>&1
cat $w/anchor-extra-2.csv
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
