#!/usr/bin/env bash
# Session 2026-11-29 (thirty-second), call 3 on 2 x H200, the build as committed: gpu-run.sh scaling 2, the NVSHMEM
# and NCCL / torch symmetric-memory anchors, then GpuCollectivesBench to 64 MB (issue 19: reduce-scatter, all-reduce
# and fcollect bus bandwidth). Run as cd .devpack && bash on-device.sh bash call3.sh
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
OUT=$out/scaling timeout 560 bash gpu-run.sh scaling 2 > $out/scaling-console.log 2>&1
echo "scaling rc=$? at ${SECONDS}s"
ls /dev/shm > $out/dev-shm-after.txt
tail -30 $out/scaling-console.log
