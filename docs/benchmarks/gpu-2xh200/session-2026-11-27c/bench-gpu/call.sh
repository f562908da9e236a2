#!/usr/bin/env bash
# Session 2026-11-27c, 2 x H200: issue 19's rows, bench-gpu.sh (NVSHMEM anchor, then jshmem's perf suite beside it).
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OUT=$out BENCH_BUDGET_S=380 timeout 560 bash bench-gpu.sh > "$out/bench-gpu.log" 2>&1; echo "bench rc=$?"
cat "$out/summary.txt" 2>/dev/null
