#!/usr/bin/env bash
# Session 2026-11-28 (twentieth), call C on 2 x H200: the committed benchmark run (NVSHMEM anchor, jshmem's suite on
# 2 PEs in the device, on_stream and host forms, the summary), with a 330 s budget for its extra steps. Run as
#   cd .devpack && BENCH_BUDGET_S=330 bash on-device.sh bash bench-gpu.sh
BENCH_BUDGET_S=330 exec bash "$(dirname "$0")/bench-gpu.sh"
