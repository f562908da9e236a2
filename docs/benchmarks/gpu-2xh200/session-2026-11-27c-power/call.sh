#!/usr/bin/env bash
# Session 2026-11-27c, 2 GPUs: why does the all-scatter's GEMM run 12-15% slower than the GEMM alone?
# SM clock, power and throttle reasons sampled every 50 ms on both GPUs while each case runs 1500
# timed calls: GEMM alone (8192x4096x8192 on both GPUs), Stream-K + all-scatter 8192^3 fp16, and the
# same with the peer's tiles stamped but not sent (JGEMM_SEND_STORES=0: wrong results, timing only).
set -u
here=$(pwd)
w=/tmp/o; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,power.max_limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1; cat $w/machine.txt
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,clocks_event_reasons.active \
  --format=csv,noheader -lms 50 > $w/smi.csv 2>&1 &
smi=$!
gemm() { # name collective shape env...
  local name=$1 c=$2 shape=$3; shift 3
  echo "== $name start $(date +%H:%M:%S.%N)" | tee -a $w/marks.txt
  bash gpu-run.sh cmd env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G "$@" timeout 120 mpirun -np 2 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --iters 1500 --warmup 20 --path fused \
    --csv $w/gemm.csv > $w/gemm-$name.log 2>&1
  echo "rc=$?"; echo "== $name end $(date +%H:%M:%S.%N)" | tee -a $w/marks.txt
  grep -iE "ms|TFLOP" $w/gemm-$name.log | tail -3
}
for r in 1 2; do
  gemm alone-$r none 8192x4096x8192
  gemm scatter-$r all_scatter 8192x8192x8192
  gemm unsent-$r all_scatter 8192x8192x8192 JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_SEND_STORES=0
done
kill $smi
tar czf "$out/call12.tgz" -C $w .
