#!/usr/bin/env bash
# Collectives across two "nodes" of one machine (JSHMEM_NODE_OF_RANK=0,0,1,1, the remote transport
# between them): the two-level HierarchicalCollectives (default) against the one-level
# CopyCollectives (JSHMEM_COLLECTIVES=copy), interleaved ROUNDS times, as users launch (bin/jshmemrun).
# The two levels run from 16 KiB here (JSHMEM_COLL_HIERARCHY_MIN=16K), so that 64 KiB shows them too.
#   scripts/remote/hierarchy-bench.sh OUTDIR [ROUNDS]
set -euo pipefail
out=${1:?output directory}; rounds=${2:-2}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
export JSHMEM_NODE_OF_RANK=0,0,1,1 JSHMEM_SPIN=0   # 4 PEs on 2 cores: yield at once (documented use)
args=(broadcast fcollect reduce --ops=sum,broadcast,fcollect --types=long --sizes=4K,64K,1M,8M -n 20 -r 5 --progress=never)
for r in $(seq 1 "$rounds"); do
  for kind in copy auto; do
    echo "== round $r, JSHMEM_COLLECTIVES=$kind"
    JSHMEM_COLLECTIVES=$kind JSHMEM_COLL_HIERARCHY_MIN=16K bin/jshmemrun -np 4 perf "${args[@]}" --library "jshmem-$kind" \
      --csv "$out/round$r-$kind.csv" 2>&1 | tee "$out/round$r-$kind.txt"
  done
done
