#!/usr/bin/env bash
# bench-cpu.sh - the full CPU benchmark run (docs/performance.md): the OpenSHMEM anchor and jshmem's
# suite on 2 PEs of this machine, in one run, so that the two compare.
#
#   scripts/bench-cpu.sh [OUTDIR] [perf options]      (default OUTDIR: build/bench/cpu)
#
# Writes OUTDIR/openshmem.csv (scripts/anchor-to-csv.sh, 5 anchor runs), then runs
# `jshmemrun -np 2 perf all --baseline OUTDIR/openshmem.csv`, writing OUTDIR/jshmem.csv, a chart per
# benchmark (OUTDIR/<benchmark>.png) and the terminal tables (OUTDIR/jshmem.txt); then the anchor
# once more, to see whether the machine's state changed during the run (OUTDIR/openshmem-after.csv).
# Benchmark on a quiet machine: check `uptime` first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/bench/cpu}
[ $# -gt 0 ] && shift
mkdir -p "$out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$root/scripts/anchor-to-csv.sh" --runs 5 -o "$out/openshmem.csv"
"$root/bin/jshmemrun" -np 2 perf all --baseline "$out/openshmem.csv" --csv "$out/jshmem.csv" --plot "$out" \
  --progress never "$@" | tee "$out/jshmem.txt"
"$root/scripts/anchor-to-csv.sh" --runs 3 -o "$out/openshmem-after.csv"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
