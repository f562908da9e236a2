#!/usr/bin/env bash
# anchor-to-csv.sh - the OpenSHMEM anchor's figures as a CSV of jshmem perf's schema, for --baseline.
#
#   scripts/anchor-to-csv.sh [--runs N] [-o FILE] [LOG...]
#
# Runs shared/anchors/run-oshmem.sh (OpenMPI's OpenSHMEM, 2 PEs) N times (default 5), or reads the
# anchor output saved in LOG files instead, and writes one row per figure: put_bw/get_bw per size,
# p_latency (p + wait_until, one way), atomic_latency fetch_add, barrier_latency barrier_all, and
# the collectives reduce (long sum_to_all) and fcollect (fcollect64), which include a barrier per
# call. Each anchor run reports the best of 3 repetitions for bandwidth and one timing for the
# rest; the CSV's median, min and max are over the runs (repetitions = runs). Writes to stdout
# unless -o is given. Anchor directory: $JSHMEM_ANCHORS, else ../shared/anchors or /work/shared/anchors.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=5 out=- logs=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "anchor-to-csv.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) logs+=("$1"); shift ;;
  esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ ${#logs[@]} -eq 0 ]; then
  anchors=${JSHMEM_ANCHORS:-}
  for d in "$root/../shared/anchors" /work/shared/anchors; do
    [ -z "$anchors" ] && [ -f "$d/run-oshmem.sh" ] && anchors=$d
  done
  [ -n "$anchors" ] || { echo "anchor-to-csv.sh: run-oshmem.sh not found; set JSHMEM_ANCHORS" >&2; exit 1; }
  for i in $(seq 1 "$runs"); do
    echo "anchor-to-csv.sh: OpenSHMEM anchor run $i of $runs" >&2
    # the anchor ends with _exit(0) without shmem_finalize (OSHMEM 4.1 + UCX crashes there), which oshrun
    # reports as a failure: judge the run by its output instead
    bash "$anchors/run-oshmem.sh" > "$tmp/run$i.log" 2>&1 || true
    grep -q '^barrier_all' "$tmp/run$i.log" || { cat "$tmp/run$i.log" >&2; echo "anchor-to-csv.sh: run $i failed" >&2; exit 1; }
    logs+=("$tmp/run$i.log")
  done
fi
version=$( (oshrun --version 2>/dev/null || mpirun --version 2>/dev/null) | head -1 || true)
{
  echo "# OpenSHMEM anchor (shared/anchors/oshmem_anchor.c) via ${version:-oshrun}, 2 PEs, $(date -u +%Y-%m-%d), ${#logs[@]} run(s); $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# bandwidth: best of 3 in each run; median/min/max over runs. reduce and fcollect include a barrier per call."
  echo "library,benchmark,form,op,type,pes,size_bytes,iterations,repetitions,unit,median,min,max"
  awk -v runs="${#logs[@]}" '
    function add(key, v) { n[key]++; val[key, n[key]] = v; if (!(key in order)) { order[key] = ++nk; keys[nk] = key } }
    FNR == 1 { table = "" }
    /put_GBs/ { table = "bw"; next }
    /sumred_us/ { table = "coll"; next }
    /p\/wait_until one-way latency/ { add("p_latency,p,long,8,100000,us", $(NF-1)); table = ""; next }
    /atomic_fetch_add latency/ { add("atomic_latency,fetch_add,long,8,100000,us", $(NF-1)); next }
    /^barrier_all/ { add("barrier_latency,barrier_all,-,0,20000,us", $(NF-1)); next }
    table == "bw" && NF == 3 && $1 ~ /^[0-9]+$/ {
      it = ($1 < 65536) ? 20000 : ($1 < 4194304 ? 500 : 20)
      add("put_bw,put,byte," $1 "," it ",GB/s", $2); add("get_bw,get,byte," $1 "," it ",GB/s", $3); next }
    table == "coll" && NF == 3 && $1 ~ /^[0-9]+$/ {
      it = ($1 < 65536) ? 5000 : 50
      add("reduce,sum,long," $1 "," it ",us", $2); add("fcollect,fcollect,long," $1 "," it ",us", $3); next }
    END {
      for (k = 1; k <= nk; k++) {
        key = keys[k]; m = n[key]
        for (i = 1; i <= m; i++) a[i] = val[key, i] + 0
        for (i = 2; i <= m; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j+1] = a[j]; j-- } a[j+1] = x }
        med = (m % 2) ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2
        split(key, f, ",")
        printf "openshmem,%s,host,%s,%s,2,%s,%s,%d,%s,%g,%g,%g\n", f[1], f[2], f[3], f[4], f[5], m, f[6], med, a[1], a[m]
      }
    }' "${logs[@]}" | sort -s -t, -k2,2
} > "$tmp/out.csv"
if [ "$out" = - ]; then cat "$tmp/out.csv"; else mkdir -p "$(dirname "$out")"; cp "$tmp/out.csv" "$out"; echo "wrote $out" >&2; fi
