#!/usr/bin/env bash
# Session 2026-11-30c (thirty-fifth), call 4 on 2 x H200: GpuCollectivesBench now times through perf's GpuClock
# (timeAfterBarrier) instead of its own stream and events; the same loop (barrier on the stream, event, calls,
# event). Runs it to 64 MB on 2 PEs, a GPU each, with its result checks, and PerfGpuSmokeTest.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call4.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 150 mpirun -np 2 java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
  org.jshmem.perf.gpu.GpuCollectivesBench "$out/gpu-coll-2pe.csv" 64M 3 > "$out/gpu-coll-2pe.log" 2>&1
echo "GpuCollectivesBench rc=$? at ${SECONDS}s"
grep -iE "wrong|expected|problem" "$out/gpu-coll-2pe.log" | head -5
grep -E ",(1024|67108864)," "$out/gpu-coll-2pe.csv" | grep stream
OUT=$out/smoke timeout 150 bash "$here/gpu-run.sh" classes --select-class org.jshmem.perf.PerfGpuSmokeTest > $out/smoke.log 2>&1
echo "smoke rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed)" $out/smoke.log | head -4
ls /dev/shm > $out/dev-shm-after.txt
