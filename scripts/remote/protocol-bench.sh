#!/usr/bin/env bash
# The remote transport's two protocols on 2 PEs of this machine (JSHMEM_TRANSPORT=remote), each beside
# the MPI it rides on, interleaved ROUNDS times, as users launch (bin/jshmemrun): the one-sided anchor,
# jshmem on rma, the two-sided anchor (mpi_rma_anchor --two-sided), jshmem on messages.
#   scripts/remote/protocol-bench.sh OUTDIR [ROUNDS]
set -euo pipefail
out=${1:?output directory}; rounds=${2:-2}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
mpicc -O2 -pthread -o build/mpi_rma_anchor scripts/remote/mpi_rma_anchor.c
export JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M
bw=(put_bw get_bw --min 8 --max 4M --factor 4 --reps 5 --progress=never)
lat=(put_latency get_latency --sizes 8,32,128,512,2K --reps 5 --progress=never)
for r in $(seq 1 "$rounds"); do
  echo "== round $r"
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 4M --factor 4 --reps 5 > "$out/round$r-mpi.csv"
  JSHMEM_REMOTE_PROTOCOL=rma bin/jshmemrun -np 2 perf "${bw[@]}" --library jshmem-rma --csv "$out/round$r-rma-bw.csv" > /dev/null
  JSHMEM_REMOTE_PROTOCOL=rma bin/jshmemrun -np 2 perf "${lat[@]}" --library jshmem-rma --csv "$out/round$r-rma-lat.csv" > /dev/null
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 4M --factor 4 --reps 5 --two-sided > "$out/round$r-mpi-2sided.csv"
  JSHMEM_REMOTE_PROTOCOL=messages bin/jshmemrun -np 2 perf "${bw[@]}" --library jshmem-messages --csv "$out/round$r-messages-bw.csv" > /dev/null
  JSHMEM_REMOTE_PROTOCOL=messages bin/jshmemrun -np 2 perf "${lat[@]}" --library jshmem-messages --csv "$out/round$r-messages-lat.csv" > /dev/null
done
