#!/usr/bin/env bash
# Session 2026-11-28 (nineteenth), call C on 2 x H200, one PE per GPU: why the all-scatter by the copy engines
# ran no faster than the kernel's stores (call B). 8192^3 fp16, 200 timed calls per run, nvidia-smi every 50 ms.
# The experiment build (xvar/gemm-ext-x.jar first on the class path; experiment.patch, not kept) also times each
# call's kernel with events (kernel-ms) and, with JSHMEM_X_NOCOPY=1, leaves the copies out (stamps, waits and
# signals only: timing only). Then the cuBLAS probe (as_ce_probe.cu) on the same machine.
set -u
here=$(pwd)
w=/tmp/oC; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
nvidia-smi --query-gpu=timestamp,index,clocks.sm,power.draw,utilization.gpu,clocks_event_reasons.active \
  --format=csv,noheader -lms 50 > $w/smi.csv 2>&1 &
smi=$!
SECONDS=0
g() { # name collective shape [options]; env before
  local name=$1 c=$2 shape=$3; shift 3
  echo "== $name start $(date +%H:%M:%S.%N)" >> $w/marks.txt
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=6G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu \
    -cp "$here/xvar/gemm-ext-x.jar:$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --path fused --iters 200 "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  local rc=$?
  echo "== $name end $(date +%H:%M:%S.%N)" >> $w/marks.txt
  echo "$name rc=$rc at ${SECONDS}s: $(grep -E "^$c " $w/$name.log | awk '{print $6}') ms; $(grep kernel-ms $w/$name.log | tr '\n' ' ')"
}
unset JSHMEM_X_NOCOPY JSHMEM_GEMM_COMPILE_OPTIONS
for r in 1 2; do
  g alone-$r none 8192x4096x8192
  g stores-$r all_scatter 8192x8192x8192 --scatter stores
  g ce-$r all_scatter 8192x8192x8192 --scatter copy_engine
  JSHMEM_X_NOCOPY=1 g ce-nocopy-$r all_scatter 8192x8192x8192 --scatter copy_engine
  JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_SEND_STORES=0 g unsent-$r all_scatter 8192x8192x8192 --scatter stores
  tar czf "$out/callC.tgz" -C $w .
done 2>&1 | tee $w/sweep.txt
kill $smi
nvcc=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
$nvcc -O2 -arch=sm_90 -o $w/as_ce $here/as_ce_probe.cu -lcublas > $w/probe-build.log 2>&1
timeout 100 $w/as_ce 200 2>&1 | tee $w/probe.csv
tar czf "$out/callC.tgz" -C $w .
