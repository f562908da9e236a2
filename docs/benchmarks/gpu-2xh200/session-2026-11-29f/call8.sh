#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 8 on 2 x H200: device put bandwidth on one machine three ways, three rounds
# interleaved: jshmem's perf (put_bw --form device, 2 PEs, one per GPU), the same copy loop launched from C++
# (scripts/device/tma_put_probe.cu threads), and the NVSHMEM anchor (once per round). Is jshmem's 1 MB figure below
# the C++ launch of its own loop on the same machine? Run as cd .devpack && bash on-device.sh bash call8.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o8; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/tma_put tma_put_probe.cu > $w/build.log 2>&1 || { cat $w/build.log; exit 1; }
nvidia-smi --query-gpu=index,name,power.limit,clocks.max.sm --format=csv > $w/machine.txt
SECONDS=0
for r in 1 2 3; do
  echo "== round $r at ${SECONDS}s: C++ launch of the loop"
  /tmp/tma_put threads | tee $w/probe-r$r.csv | grep -E "^threads,32,(1048576|4194304|268435456)," 
  echo "== round $r at ${SECONDS}s: jshmem perf"
  JSHMEM_BACKEND=cuda timeout -k 10 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
    put_bw --form device --sizes 1M,4M,256M --progress never --csv $w/perf-r$r.csv > $w/perf-r$r.log 2>&1
  grep -E "^\s+(1M|4M|256M) " $w/perf-r$r.log
  echo "== round $r at ${SECONDS}s: NVSHMEM anchor"
  bash "$here/anchors/run-nvshmem.sh" > $w/nvshmem-r$r.log 2>&1
  grep -E "^\s+(1048576|4194304|268435456) " $w/nvshmem-r$r.log | head -3
done 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call8.tgz" -C $w .
