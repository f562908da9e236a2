#!/usr/bin/env bash
# Waits that poll MPI without yielding on every step (Waiter, 2026-11-28): three interleaved rounds of the
# two-sided anchor, jshmem on the messages protocol (new build, then the build before), the one-sided anchor,
# jshmem on rma (new, before). "Before" is /tmp/bh: a copy of bin/ and build/ whose build/lib holds the
# shmem-core jar of the commit before the change. Tables: python3 table.py . > table.md
set -u
cd /work/main
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M
out=/tmp/p17/ab
bw=(put_bw get_bw --min 8 --max 4M --factor 4 --reps 5 --progress=never)
lat=(put_latency get_latency --sizes 8,32,128,512,2K --reps 5 --progress=never)
j() { # home protocol tag
  JSHMEM_REMOTE_PROTOCOL=$2 $1/bin/jshmemrun -np 2 perf "${bw[@]}" --library jshmem-$3 --csv "$out/round$r-$3-bw.csv" > /dev/null
  JSHMEM_REMOTE_PROTOCOL=$2 $1/bin/jshmemrun -np 2 perf "${lat[@]}" --library jshmem-$3 --csv "$out/round$r-$3-lat.csv" > /dev/null
}
for r in 1 2 3; do
  echo "== round $r $(date +%T)"
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 4M --factor 4 --reps 5 --two-sided > "$out/round$r-mpi-2sided.csv"
  j /work/main messages messages-new
  j /tmp/bh messages messages-old
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 4M --factor 4 --reps 5 > "$out/round$r-mpi.csv"
  j /work/main rma rma-new
  j /tmp/bh rma rma-old
done
echo "== done $(date +%T)"
