#!/usr/bin/env bash
# bench-scaling.sh - the collectives on 2, 4 and 8 PEs of this machine (oversubscribed where PEs
# outnumber cores), one CSV per PE count, and a chart of bus bandwidth against PEs.
#
#   scripts/bench-scaling.sh [OUTDIR] [PE counts]      (defaults: build/bench/scaling/cpu, "2 4 8")
#
# The GPU counterpart is `gpu-run.sh scaling` on the GPU machine (GpuCollectivesBench per PE count).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/bench/scaling/cpu}
counts=${2:-2 4 8}
mkdir -p "$out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" | tee "$out/cpu.txt"
for n in $counts; do
  for b in "reduce --ops sum --types long" fcollect alltoall broadcast; do
    # shellcheck disable=SC2086  # $b is a benchmark and its options
    "$root/bin/jshmemrun" -np "$n" perf $b --sizes 8,8K,1M,8M --reps 3 --progress never \
      --csv "$out/${b%% *}-${n}pe.csv" | tee -a "$out/cpu.txt"
  done
done
"${JAVA_HOME:+$JAVA_HOME/bin/}java" -cp "$root/build/lib/*" org.jshmem.perf.ScalingChart -o "$out/busbw-vs-pes.png" --sizes 8K,1M,8M \
  --title "Host backend, $(nproc) cores: collectives' bus bandwidth against PEs" "$out"/*pe.csv | tee -a "$out/cpu.txt"
