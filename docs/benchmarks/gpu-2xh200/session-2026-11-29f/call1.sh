#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 1 on 2 x H200: the committed benchmark run (NVSHMEM anchor, jshmem's suite on
# 2 PEs, one per GPU, device, on_stream and host forms, the summary), 330 s for its extra steps. Run as
#   cd .devpack && bash on-device.sh bash call1.sh
BENCH_BUDGET_S=330 bash "$(dirname "$0")/bench-gpu.sh"
ls /dev/shm > "${OUT:-/tmp/out}/dev-shm-after.txt"
