#!/usr/bin/env bash
# Session 2026-11-27g, call F on 2 x H200, one PE per GPU: SM clock and power while the fused all-scatter (fp16 8192^3)
# and the shard alone (8192x4096x8192) run 600 timed calls each, interleaved, two rounds; nvidia-smi samples every 20 ms.
set -u
here=$(pwd)
w=/tmp/oF; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,nounits -lms 20 > $w/smi.csv 2>&1 &
smi=$!
g() { # name collective shape [GemmMain options]
  local name=$1 c=$2 shape=$3; shift 3
  echo "$name start $(date +%H:%M:%S.%N)" >> $w/phases.txt
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --iters 600 --warmup 50 "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name end $(date +%H:%M:%S.%N)" >> $w/phases.txt
  echo "$name rc=$? at ${SECONDS}s: $(tail -1 $w/$name.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
for r in 1 2; do
  g alone-$r none 8192x4096x8192
  g fused-$r all_scatter 8192x8192x8192 --path fused
done
kill $smi
tar czf "$out/callF.tgz" -C $w .
