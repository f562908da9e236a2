#!/usr/bin/env bash
# Call F (one GPU): clusters of 2 where B's traffic weighs most, GEMMs of 256 and 512 rows (a pair covers
# two tile rows and fetches each B box once), single CTAs against pairs, cuBLAS beside (--reference), bf16.
cd "$(dirname "$0")"
. ./gemm-env.sh
s=256x8192x4096,256x8192x8192,512x8192x8192,512x4096x8192
for round in 1 2; do
  for cl in 1 2; do gemm bf16 $cl "$s" "f-c$cl" --reference | grep -E "^none|FAIL|rror"; done
done
