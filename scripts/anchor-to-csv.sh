#!/usr/bin/env bash
# anchor-to-csv.sh - an anchor's figures as a CSV of jshmem perf's schema, for --baseline.
#
#   scripts/anchor-to-csv.sh [--runs N] [-o FILE] [LOG...]              OpenSHMEM (CPU)
#   scripts/anchor-to-csv.sh --nvshmem [--runs N] [-o FILE] [LOG...]    NVSHMEM (GPU machine)
#   scripts/anchor-to-csv.sh --nccl [-o FILE] LOG...                     NCCL and torch symm (run-symm.sh's output)
#
# OpenSHMEM: runs shared/anchors/run-oshmem.sh (OpenMPI's OpenSHMEM, 2 PEs) N times (default 5), or
# reads the anchor output saved in LOG files instead, and writes one row per figure: put_bw/get_bw
# per size, p_latency (p + wait_until, one way), atomic_latency fetch_add, barrier_latency
# barrier_all, and the collectives reduce (long sum_to_all) and fcollect (fcollect64), which
# include a barrier per call. Each anchor run reports the best of 3 repetitions for bandwidth and
# one timing for the rest. All rows are of the host form.
#
# NVSHMEM (--nvshmem): runs shared/anchors/run-nvshmem.sh N times (default 1), or reads its saved
# output, and writes rows in the form each figure was measured in: put_bw device (putmem_nbi_block
# kernel) and on_stream (putmem_on_stream) per size, p_latency device (p int), put_signal_latency
# device per size, put_latency host (putmem 8 B + quiet), barrier_latency on_stream
# (barrier_all_on_stream) and host (barrier_all), reduce (float sum) and fcollect (float) on_stream
# per size (bytes per PE, no barrier per call). Each anchor run reports the median of 5 repetitions
# (bandwidth, barrier on stream) or one timing.
#
# NCCL (--nccl): reads the saved output of shared/anchors/run-symm.sh (bf16 sum all-reduce on a
# stream, sizes in bytes, 50 calls, median of 5) and writes reduce rows of two libraries: nccl
# (dist.all_reduce) and torch_symm (the faster of PyTorch's one-shot and two-shot symmetric-memory
# all-reduce). The PE count is the anchor's world size.
#
# The CSV's median, min and max are over the runs (repetitions = runs). Writes to stdout unless -o is
# given. Anchor directory: $JSHMEM_ANCHORS, else ./anchors beside this script, ../shared/anchors or
# /work/shared/anchors.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
runs= out=- logs=() kind=oshmem
while [ $# -gt 0 ]; do
  case $1 in
    --nvshmem) kind=nvshmem; shift ;;
    --nccl) kind=nccl; shift ;;
    --runs) runs=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "anchor-to-csv.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) logs+=("$1"); shift ;;
  esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
csv_header="library,benchmark,form,op,type,pes,size_bytes,iterations,repetitions,unit,median,min,max"
# median, min and max over the runs of each figure; input lines "key|value" where key is the row's
# fields before repetitions with a '%s' where the statistics go
stats_awk='
  { split($0, kv, "|"); key = kv[1]; if (!(key in n)) { order[++nk] = key }; n[key]++; val[key, n[key]] = kv[2] + 0 }
  END {
    for (k = 1; k <= nk; k++) {
      key = order[k]; m = n[key]
      for (i = 1; i <= m; i++) a[i] = val[key, i]
      for (i = 2; i <= m; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j+1] = a[j]; j-- } a[j+1] = x }
      med = (m % 2) ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2
      split(key, f, ",")
      printf "%s,%s,%s,%s,%s,%s,%s,%s,%d,%s,%g,%g,%g\n", f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], m, f[9], med, a[1], a[m]
    }
  }'
if [ "$kind" = nccl ]; then
  [ ${#logs[@]} -gt 0 ] || { echo "anchor-to-csv.sh: --nccl reads saved run-symm.sh output: give its LOG files" >&2; exit 2; }
  version=$(grep -h -m1 '^torch .* ws ' "${logs[@]}" | head -1 || true)
  [ -n "$version" ] || { echo "anchor-to-csv.sh: no 'torch <version> ws <n>' line in ${logs[*]}: not run-symm.sh output" >&2; exit 1; }
  {
    echo "# NCCL and torch symmetric-memory all-reduce (shared/anchors/symm_anchor.py): $version; $(date -u +%Y-%m-%d), ${#logs[@]} run(s)"
    echo "# bf16 sum on a stream, 50 calls, median of 5 in each run; median/min/max over runs. torch_symm: the faster of one-shot and two-shot."
    echo "$csv_header"
    awk '
      /^torch .* ws / { pes = $NF + 0; next }
      NF == 5 && $1 ~ /^[0-9]+$/ {
        print "nccl,reduce,on_stream,sum,bf16," pes "," $1 ",50,us|" $2
        best = ""
        if ($3 != "nan") best = $3 + 0
        if ($4 != "nan" && (best == "" || $4 + 0 < best)) best = $4 + 0
        if (best != "") print "torch_symm,reduce,on_stream,sum,bf16," pes "," $1 ",50,us|" best
      }
    ' "${logs[@]}" | awk "$stats_awk" | sort -s -t, -k1,1
  } > "$tmp/out.csv"
  if [ "$out" = - ]; then cat "$tmp/out.csv"; else mkdir -p "$(dirname "$out")"; cp "$tmp/out.csv" "$out"; echo "wrote $out" >&2; fi
  exit 0
fi
if [ "$kind" = nvshmem ]; then
  if [ ${#logs[@]} -eq 0 ]; then
    anchors=${JSHMEM_ANCHORS:-}
    for d in "$here/anchors" "$root/../shared/anchors" /work/shared/anchors; do
      [ -z "$anchors" ] && [ -f "$d/run-nvshmem.sh" ] && anchors=$d
    done
    [ -n "$anchors" ] || { echo "anchor-to-csv.sh: run-nvshmem.sh not found; set JSHMEM_ANCHORS" >&2; exit 1; }
    for i in $(seq 1 "${runs:-1}"); do
      echo "anchor-to-csv.sh: NVSHMEM anchor run $i of ${runs:-1}" >&2
      bash "$anchors/run-nvshmem.sh" > "$tmp/run$i.log" 2>&1 || true
      grep -q '^barrier_all_on_stream' "$tmp/run$i.log" || { cat "$tmp/run$i.log" >&2; echo "anchor-to-csv.sh: run $i failed" >&2; exit 1; }
      logs+=("$tmp/run$i.log")
    done
  fi
  version=$(grep -h -m1 '^nvshmem pes=' "${logs[@]}" | head -1 || true)
  {
    echo "# NVSHMEM anchor (shared/anchors/nvshmem_anchor.cu): ${version:-version unknown}; $(date -u +%Y-%m-%d), ${#logs[@]} run(s)"
    echo "# forms: device = putmem_nbi_block / p / putmem_signal kernels, on_stream = *_on_stream, host = host-initiated."
    echo "# bandwidth and barrier_all_on_stream: median of 5 repetitions in each run; median/min/max over runs."
    echo "$csv_header"
    awk '
      FNR == 1 { table = ""; pes = 2 }
      /^nvshmem pes=/ { split($2, p, "="); pes = p[2] + 0; next }
      /dev_put_GBs/ { table = "bw"; next }
      /sumred_us/ { table = "coll"; next }
      /p\/wait_until one-way latency/ { print "nvshmem,p_latency,device,p,int," pes ",4,10000,us|" $(NF-1); table = ""; next }
      /put_signal\+wait one-way latency/ {
        b = $4     # "put_signal+wait one-way latency 8 B: 3.340 us"
        print "nvshmem,put_signal_latency,device,put_signal,byte," pes "," b ",2000,us|" $(NF-1); next }
      /^host putmem 8B \+ quiet latency/ { print "nvshmem,put_latency,host,put,byte," pes ",8,1000,us|" $(NF-1); next }
      /^barrier_all_on_stream/ { print "nvshmem,barrier_latency,on_stream,barrier_all,-," pes ",0,1000,us|" $(NF-1); next }
      /^host barrier_all/ { print "nvshmem,barrier_latency,host,barrier_all,-," pes ",0,1000,us|" $(NF-1); next }
      table == "bw" && NF == 3 && $1 ~ /^[0-9]+$/ {
        it = ($1 < 1048576) ? 100 : 10
        print "nvshmem,put_bw,device,put,byte," pes "," $1 "," it ",GB/s|" $2
        print "nvshmem,put_bw,on_stream,put,byte," pes "," $1 "," it ",GB/s|" $3; next }
      table == "coll" && NF == 5 && $1 ~ /^[0-9]+$/ {
        it = ($1 < 1048576) ? 200 : 20
        print "nvshmem,reduce,on_stream,sum,float," pes "," $1 "," it ",us|" $2
        if ($4 + 0 > 0) print "nvshmem,fcollect,on_stream,fcollect,float," pes "," $1 "," it ",us|" $4
        next }
    ' "${logs[@]}" | awk "$stats_awk" | sort -s -t, -k2,3
  } > "$tmp/out.csv"
  if [ "$out" = - ]; then cat "$tmp/out.csv"; else mkdir -p "$(dirname "$out")"; cp "$tmp/out.csv" "$out"; echo "wrote $out" >&2; fi
  exit 0
fi
runs=${runs:-5}
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
