#!/usr/bin/env bash
# MPI handles in static finals (this build) against the build before (/tmp/bh2: HEAD's shmem-core jar),
# interleaved with the anchors, order alternating by round.
set -u
cd /work/main
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M
out=/tmp/p17/mh
bw=(put_bw get_bw --min 8 --max 128K --factor 4 --reps 5 --progress=never)
lat=(put_latency get_latency --sizes 8,2K --reps 5 --progress=never)
for r in 1 2 3 4; do
  echo "== round $r $(date +%T)"
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 128K --factor 4 --reps 5 > "$out/round$r-mpi.csv"
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 2K --factor 256 --reps 5 --two-sided > "$out/round$r-mpi-2sided.csv"
  if [ $((r % 2)) = 1 ]; then order="new old"; else order="old new"; fi
  for b in $order; do
    home=/work/main; [ $b = old ] && home=/tmp/bh2
    JSHMEM_REMOTE_PROTOCOL=rma $home/bin/jshmemrun -np 2 perf "${bw[@]}" --library rma-$b --csv "$out/round$r-rma-$b-bw.csv" > /dev/null
    JSHMEM_REMOTE_PROTOCOL=rma $home/bin/jshmemrun -np 2 perf "${lat[@]}" --library rma-$b --csv "$out/round$r-rma-$b-lat.csv" > /dev/null
    JSHMEM_REMOTE_PROTOCOL=messages $home/bin/jshmemrun -np 2 perf "${lat[@]}" --library messages-$b --csv "$out/round$r-messages-$b-lat.csv" > /dev/null
  done
done
echo "== done $(date +%T)"
