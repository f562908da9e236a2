#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 6 on 2 x H200: scripts/device/tma_put_probe.cu, a block's put to the peer GPU
# by its threads' stores against the bulk-copy engine, timed as the NVSHMEM anchor's put_bw (issue 19's device rows).
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/tma_put tma_put_probe.cu > $out/build.log 2>&1 || { cat $out/build.log; exit 1; }
nvidia-smi --query-gpu=index,name,power.limit,clocks.max.sm --format=csv > $out/machine.txt
timeout 240 /tmp/tma_put > $out/tma_put.csv 2>&1; echo "rc=$?"
cat $out/tma_put.csv
