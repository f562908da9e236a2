#!/usr/bin/env bash
# Session 2026-12-01, call 1 on one H200: a resident kernel serving host calls against a launch per call
# (host_service_probe.cu), and jshmem's host-called 1 KB all-reduce on 1 PE today (BlockingProbe of session 2026-11-28m).
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c1; mkdir -p $w
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nproc; } > $w/machine.txt 2>&1
cat $w/machine.txt
nvcc -O3 -std=c++17 -arch=sm_90 -o $w/host_service host_service_probe.cu > $w/nvcc.log 2>&1 || cat $w/nvcc.log
for ns in 0 200 0; do timeout 120 $w/host_service $ns 2>&1 | tee -a $w/service.txt; done
echo "at ${SECONDS}s"
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 200 java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/probe:$here/lib/*:$here/mpi.jar" BlockingProbe > $w/blocking-1pe.log 2>&1
echo "BlockingProbe rc=$? at ${SECONDS}s"; cat $w/blocking-1pe.log | grep -v WARNING | head -30
timeout 120 $w/host_service 0 2>&1 | tee -a $w/service.txt
ls /dev/shm > $w/dev-shm-after.txt
cp -r $w "$out/call1"
