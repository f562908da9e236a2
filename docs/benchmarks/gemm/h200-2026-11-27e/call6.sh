#!/usr/bin/env bash
# the GEMM alone beside the cuBLAS anchor, same call (one H200): every anchor shape, bf16 and fp16, validated
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv,noheader > "$OUT/machine.txt"
timeout 350 bash gpu-run.sh gemm > "$OUT/gemm-run.log" 2>&1; echo "gemm rc=$?"
grep -c "validated\|ok" "$OUT/gemm-alone.log"; tail -4 "$OUT/gemm-alone.log"
