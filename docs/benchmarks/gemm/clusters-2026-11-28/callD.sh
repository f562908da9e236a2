#!/usr/bin/env bash
# Call D (one GPU): GEMMs of less than half a wave of tiles (128x8192x8192 has 64 tiles of 128x128 for 132 SMs):
# data-parallel (today's automatic choice) against every tile split (Stream-K), cuBLAS beside each case
# (--reference), bf16 and fp16, two rounds.
cd "$(dirname "$0")"
. ./gemm-env.sh
s=128x8192x8192,128x16384x4096,128x4096x8192,256x8192x4096,1000x1000x1000
for round in 1 2; do
  for t in bf16 fp16; do
    for split in data_parallel stream_k; do
      gemm $t 1 "$s" "d-$split" --split $split --reference | grep -E "^none|FAIL|rror"
    done
  done
done
