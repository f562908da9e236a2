#!/usr/bin/env bash
# Session 2026-11-27c: at the power cap, does the 128x192 tile (the heuristic's choice for these
# shapes) still beat 128x256? Both tiles, steady (1500 calls after 300) and short (20 after 5), bf16,
# two rounds, cuBLAS at steady state between them.
set -u
here=$(pwd); w=/tmp/o; mkdir -p $w; out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
shapes=3840x3840x4096,1536x6144x8192,5120x5120x2048
g() { # csv tile iters warmup
  bash gpu-run.sh cmd env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 120 mpirun -np 1 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes $shapes --dtype bf16 --validate --iters $3 --warmup $4 --tile $2 \
    --csv $w/$1.csv > $w/$1.log 2>&1
  echo "$1 rc=$?: $(cut -d, -f3-5,9 $w/$1.csv | tail -3 | tr '\n' ' ')"
}
for r in 1 2; do
  /opt/torch/.venv/bin/python steady.py $shapes 2>&1 | grep -v -i warn | tee -a $w/cublas-steady.csv
  g steady-256-$r 128x256x64 1500 300
  g steady-192-$r 128x192x64 1500 300
  g short-256-$r 128x256x64 20 5
  g short-192-$r 128x192x64 20 5
done
tar czf "$out/call15.tgz" -C $w .
