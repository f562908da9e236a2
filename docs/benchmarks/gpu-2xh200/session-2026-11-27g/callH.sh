#!/usr/bin/env bash
# Session 2026-11-27g, call H on 2 x H200: device put_bw 64 KB and 1 MB with the default warm-up (100 ms) and with
# 3 s of warm-up (the JIT's second tier compiles the launch path), interleaved, two rounds.
set -u
here=$(pwd)
w=/tmp/oH; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
for r in 1 2; do
  for wm in 100 3000; do
    csv=$w/warm$wm-$r.csv
    JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 60 mpirun -np 2 --bind-to none \
      java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
      org.jshmem.perf.PerfMain put_bw --sizes 64K,1M --reps 5 --warmup-ms $wm --form device --progress never --csv $csv > ${csv%.csv}.log 2>&1
    echo "warmup ${wm} ms rc=$? at ${SECONDS}s: $(grep -E '^jshmem,' $csv | cut -d, -f7,11 | tr '\n' ' ')"
  done
done
tar czf "$out/callH.tgz" -C $w .
