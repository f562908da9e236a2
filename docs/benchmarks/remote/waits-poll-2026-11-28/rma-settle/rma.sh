#!/usr/bin/env bash
set -u
cd /work/main
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M JSHMEM_REMOTE_PROTOCOL=rma
out=/tmp/p17/rma
bw=(put_bw get_bw --min 8 --max 512K --factor 4 --reps 5 --progress=never)
for r in 1 2 3 4; do
  echo "== round $r $(date +%T)"
  mpirun -np 2 build/mpi_rma_anchor --min 8 --max 512K --factor 4 --reps 5 > "$out/round$r-mpi.csv"
  if [ $((r % 2)) = 1 ]; then order="new old"; else order="old new"; fi
  for b in $order; do
    home=/work/main; [ $b = old ] && home=/tmp/bh
    $home/bin/jshmemrun -np 2 perf "${bw[@]}" --library jshmem-rma-$b --csv "$out/round$r-rma-$b-bw.csv" > /dev/null
  done
done
echo "== done $(date +%T)"
