#!/usr/bin/env bash
# Session 2026-11-30b (thirty-fourth), call 2 on 2 x H200, this session's build (8685514; no GPU code changed since
# e1eeb65): bench-gpu.sh, issue 19's NVLink rows with the NVSHMEM anchor in the same run (one PE per GPU). Run as cd .devpack && bash on-device.sh bash call2.sh
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
OUT=$out/bench BENCH_BUDGET_S=360 timeout 560 bash bench-gpu.sh > $out/bench-gpu-console.log 2>&1
echo "bench-gpu rc=$? at ${SECONDS}s"
ls /dev/shm > $out/dev-shm-after.txt
cat $out/bench/summary.txt
