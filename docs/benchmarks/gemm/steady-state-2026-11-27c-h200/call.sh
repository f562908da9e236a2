#!/usr/bin/env bash
# Session 2026-11-27c: GEMM alone at the power cap, jshmem beside cuBLAS, interleaved: per shape
# 1500 timed calls after a warm-up long enough to reach steady clocks; SM clock sampled every 100 ms.
set -u
here=$(pwd); w=/tmp/o; mkdir -p $w; out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $w/machine.txt
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_event_reasons.active --format=csv,noheader -lms 100 > $w/smi.csv 2>&1 &
smi=$!
shapes=8192x8192x8192,8192x8192x4096,3840x3840x4096,1536x6144x8192
for r in 1 2; do
  echo "== round $r cuBLAS $(date +%T)" | tee -a $w/marks.txt
  /opt/torch/.venv/bin/python steady.py $shapes 2>&1 | grep -v -i warn | tee -a $w/cublas.csv
  echo "== round $r jshmem $(date +%T)" | tee -a $w/marks.txt
  bash gpu-run.sh cmd env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes $shapes --dtype bf16 --validate --iters 1500 --warmup 300 \
    --csv $w/jshmem.csv > $w/jshmem-$r.log 2>&1
  echo "rc=$?"; grep -E "^ +none" $w/jshmem-$r.log | grep -v hopper
done
kill $smi
tar czf "$out/call14.tgz" -C $w .
