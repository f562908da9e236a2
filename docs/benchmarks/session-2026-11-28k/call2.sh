#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 2 on one H200: is the Hopper kernel's slow mode at 8192x4096x8192 (fp16
# 0.82-0.84 ms against 0.73 in bf16 and with clusters of 2, call 1) the power cap? 200 calls per run, one shape per
# JVM, single CTAs and clusters of 2 interleaved, fp16 and bf16, with nvidia-smi sampling SM clock, power and the
# throttle reasons every 20 ms; cuBLAS with 200 reps the same way.
set -u
here=$(pwd)
w=/tmp/o2; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
PY=/opt/torch/.venv/bin/python
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,noheader -lms 20 > $w/clocks.csv 2>&1 &
smi=$!
SECONDS=0
g() { # name dtype shape [options]
  local name=$1 dt=$2 sh=$3; shift 3
  echo "start $name $(date +%H:%M:%S.%N)" >> $w/marks.txt
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 120 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes $sh --dtype $dt --warmup 5 "$@" --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "end $name $(date +%H:%M:%S.%N)" >> $w/marks.txt
  echo "== $name rc=$? at ${SECONDS}s $(grep -E '^none ' $w/$name.log)"
  tar czf "$out/call2.tgz" -C $w .
}
{
g warm fp16 8192x4096x8192 --iters 20 --validate
g warm2 fp16 8192x4096x8192 --iters 20 --cluster 2 --validate
for r in 1 2; do
  g fp16-c1-$r fp16 8192x4096x8192 --iters 200
  g fp16-c2-$r fp16 8192x4096x8192 --iters 200 --cluster 2
  g bf16-c1-$r bf16 8192x4096x8192 --iters 200
  g bf16-c2-$r bf16 8192x4096x8192 --iters 200 --cluster 2
  g fp16-c1-20-$r fp16 8192x4096x8192 --iters 20
  g fp16-c2-20-$r fp16 8192x4096x8192 --iters 20 --cluster 2
  g fp16-8k-c1-$r fp16 8192x8192x8192 --iters 100
  g fp16-8k-c2-$r fp16 8192x8192x8192 --iters 100 --cluster 2
done
echo "start torch $(date +%H:%M:%S.%N)" >> $w/marks.txt
REPS=200 $PY "$here/anchor_extra.py" 8192x4096x8192,8192x8192x8192 > $w/anchor-200.csv 2>&1
REPS=20 $PY "$here/anchor_extra.py" 8192x4096x8192,8192x8192x8192 > $w/anchor-20.csv 2>&1
echo "end torch $(date +%H:%M:%S.%N)" >> $w/marks.txt
cat $w/anchor-200.csv $w/anchor-20.csv
} 2>&1 | tee $w/sweep.txt
kill $smi
tar czf "$out/call2.tgz" -C $w .
