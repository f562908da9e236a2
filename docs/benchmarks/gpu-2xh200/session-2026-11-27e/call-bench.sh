#!/usr/bin/env bash
# Session 2026-11-27 (twelfth), 2 x H200: issue 19's rows after the device proxy's change to the device
# library (a branch on every put/get/p/g/atomic for PEs of other nodes): bench-gpu.sh, NVSHMEM in the same run.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/machine.txt"
OUT=$out BENCH_BUDGET_S=380 timeout 560 bash bench-gpu.sh > "$out/bench-gpu.log" 2>&1; echo "bench rc=$?"
cat "$out/summary.txt" 2>/dev/null
