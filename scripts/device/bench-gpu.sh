#!/usr/bin/env bash
# bench-gpu.sh - the GPU benchmark run, at most about 7 minutes on the GPU machine (one device call):
# the NVSHMEM anchor (anchors/run-nvshmem.sh), then jshmem's suite on 2 PEs with JSHMEM_BACKEND=cuda in
# the device, on_stream and host forms, each beside the anchor's figures of the same run (--baseline),
# then a summary of the target figures.
#
#   bash .devpack/on-device.sh bash .devpack/bench-gpu.sh        (packed by scripts/device/pack.sh)
#
# Files in $OUT (default /tmp/jshmem-bench), 5 of them:
#   bench-gpu.log        everything printed (the tables with the ratio per size, the summary)
#   anchor-nvshmem.log   the anchor's own output
#   nvshmem.csv          the anchor's figures in perf's CSV schema (anchor-to-csv.sh --nvshmem)
#   jshmem-gpu.csv       every jshmem row of the run, all forms (the form column tells them apart)
#   summary.txt          the target figures, jshmem beside NVSHMEM
# Each step has a time limit, so that a step that hangs costs its limit, not the whole run; the steps
# that matter most run first, the extras only while time is left. BENCH_BUDGET_S (default 400) is
# the time after which no extra step starts. BENCH_BACKEND (default cuda) is for a dry run elsewhere.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/jshmem-bench}
mkdir -p "$out"
work=$(mktemp -d)
budget=${BENCH_BUDGET_S:-400}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NVSHMEM_DISABLE_NVLS=1
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
if ! command -v nvcc >/dev/null; then    # the anchor is compiled with nvcc
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do [ -x "$d/nvcc" ] && { PATH=$PATH:$d; break; }; done
fi
cp="$here/lib/*:$here/mpi.jar"
. "$here/one-gpu.sh"

# jshmem perf on 2 PEs of the GPU heap: perf NAME LIMIT_S ARGS...; writes $work/NAME.csv
perf() {
  local name=$1 limit=$2; shift 2
  local base=()
  grep -q '^nvshmem,' "$out/nvshmem.csv" 2>/dev/null && base=(--baseline "$out/nvshmem.csv")   # rows, not only a header
  echo
  echo "== jshmem $name (limit ${limit}s, at ${SECONDS}s): perf $*"
  JSHMEM_BACKEND=${BENCH_BACKEND:-cuda} timeout -k 10 "$limit" mpirun -np 2 --bind-to none \
    "$java" --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.PerfMain "$@" --progress never --csv "$work/$name.csv" ${base[@]+"${base[@]}"}
  local rc=$?
  [ $rc -eq 0 ] || echo "== jshmem $name: exit status $rc$([ $rc -eq 124 ] && echo ' (time limit)'); rows so far are kept"
}

# an extra step only while the budget lasts; its limit shrinks to what is left
extra() {
  local name=$1 limit=$2; shift 2
  local left=$((budget - SECONDS))
  if [ $left -lt 40 ]; then echo; echo "== skipped $name: ${SECONDS}s spent, budget ${budget}s"; return; fi
  [ $left -lt "$limit" ] && limit=$left
  perf "$name" "$limit" "$@"
}

# the rows of every CSV in $work as one CSV: their comments, one header, all rows
combine() {
  local files=("$work"/*.csv)
  [ -e "${files[0]}" ] || return 0
  {
    grep -h '^#' "${files[@]}"
    echo "library,benchmark,form,op,type,pes,size_bytes,iterations,repetitions,unit,median,min,max"
    grep -h -v -e '^#' -e '^library,' "${files[@]}"
  } > "$out/jshmem-gpu.csv"
}

# target figures: jshmem beside NVSHMEM (same run), ratio (>1: jshmem better), target met?
# The targets are 2 x H200 figures over NVLink: "n/a" unless this run's topology is that (TOPO=nvlink).
# A bandwidth above PEAK_GBS (the fastest path of this run, read at run time) is flagged: it cannot be real.
summary() {
  awk -F, -v topo="${TOPO:-unknown}" -v peak="${PEAK_GBS:-0}" -v onegpu="${ONE_GPU:-0}" '
    function key(b, f, o, t, s) { return b "|" f "|" o "|" t "|" s }
    /^#/ || /^library,/ || NF < 13 { next }
    { v[$1, key($2, $3, $4, $2 == "fcollect" ? "-" : $5, $7)] = $11 }   # fcollect: the same bytes in any type
    function show(what, b, f, o, t, s, unit, cmp, target,   k, j, n, r, ok) {
      k = key(b, f, o, t, s); j = v["jshmem", k]; n = v["nvshmem", k]
      r = "-"
      if (j != "" && n != "" && j + 0 > 0 && n + 0 > 0) r = sprintf("%.2f", unit == "GB/s" ? j / n : n / j)
      ok = "-"
      if (j != "" && target != "") ok = ((cmp == ">=" && j + 0 >= target + 0) || (cmp == "<=" && j + 0 <= target + 0)) ? "met" : "NOT met"
      if (target != "" && topo != "nvlink") ok = "n/a (" topo ")"
      if (unit == "GB/s" && peak + 0 > 0 && ((j != "" && j + 0 > peak + 0) || (n != "" && n + 0 > peak + 0)))
        ok = ok "  ABOVE PEAK " peak " GB/s: not a real figure"
      printf "%-40s %10s %10s %6s  %-11s %s\n", what " (" unit ")", j == "" ? "-" : j, n == "" ? "-" : n, r, \
        target == "" ? "" : cmp " " target, target == "" ? "" : ok
    }
    END {
      printf "%-40s %10s %10s %6s  %-11s %s\n", "figure", "jshmem", "NVSHMEM", "ratio", "target", ""
      show("device put 256 MB", "put_bw", "device", "put", "byte", 268435456, "GB/s", ">=", 375)
      show("device put 1 MB", "put_bw", "device", "put", "byte", 1048576, "GB/s", ">=", 300)
      show("device put 64 KB", "put_bw", "device", "put", "byte", 65536, "GB/s", ">=", 150)
      show("device put 4 KB", "put_bw", "device", "put", "byte", 4096, "GB/s", "", "")
      show("device p + wait_until, one way", "p_latency", "device", "p", "int", 4, "us", "<=", 0.9)
      show("device raw flag ping-pong, one way", "p_latency", "device", "raw", "int", 4, "us", "", "")
      show("device put_signal 8 B, one way", "put_signal_latency", "device", "put_signal", "byte", 8, "us", "<=", 1.5)
      show("device put_signal 4 KB, one way", "put_signal_latency", "device", "put_signal", "byte", 4096, "us", "", "")
      show("device put_signal 64 KB, one way", "put_signal_latency", "device", "put_signal", "byte", 65536, "us", "", "")
      show("device barrier_all (block)", "barrier_latency", "device", "barrier_all", "-", 0, "us", "", "")
      show("host on-stream put 256 MB", "put_bw", "on_stream", "put", "byte", 268435456, "GB/s", ">=", 390)
      show("host on-stream put 1 MB", "put_bw", "on_stream", "put", "byte", 1048576, "GB/s", ">=", 220)
      show("barrier_all on stream", "barrier_latency", "on_stream", "barrier_all", "-", 0, "us", "<=", 4)
      show("host put 8 B + quiet", "put_latency", "host", "put", "byte", 8, "us", "<=", 8)
      show("host barrier_all", "barrier_latency", "host", "barrier_all", "-", 0, "us", "", "")
      show("sum reduce on stream 1 KB", "reduce", "on_stream", "sum", "float", 1024, "us", "", "")
      show("sum reduce on stream 1 MB", "reduce", "on_stream", "sum", "float", 1048576, "us", "", "")
      show("sum reduce on stream 64 MB", "reduce", "on_stream", "sum", "float", 67108864, "us", "", "")
      show("fcollect on stream 1 KB", "fcollect", "on_stream", "fcollect", "-", 1024, "us", "", "")
      show("fcollect on stream 1 MB", "fcollect", "on_stream", "fcollect", "-", 1048576, "us", "", "")
      show("fcollect on stream 64 MB", "fcollect", "on_stream", "fcollect", "-", 67108864, "us", "", "")
      print ""
      if (topo != "nvlink")
        print "targets: n/a: they are 2 x H200 figures over NVLink, and this run is " topo "."
      if (onegpu == 1)
        print "one GPU: both PEs of each library share it under MPS, each capped at 50% of the SMs" \
          " (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50); every ratio here is an HBM figure, not an NVLink one."
      if (peak + 0 > 0) print "peak used to flag impossible bandwidths: " peak " GB/s (" ENVIRON["PEAK_WHAT"] ")."
      print "ratio: how many times better jshmem is (bandwidth: jshmem / NVSHMEM; latency: NVSHMEM / jshmem)."
      print "Both measured in this run on this machine; medians (jshmem: of 5 repetitions; NVSHMEM: its own median of 5 or one timing)."
    }' "$@"
}

# TOPO: "nvlink" when GPUs 0 and 1 are linked by NVLink, else what the run is ("1 GPU", "2 GPUs over PCIe");
# PEAK_GBS: the fastest copy path of the run: the NVLink links' sum (nvidia-smi nvlink -s) between two
# GPUs, else the HBM bandwidth of GPU 0 (memory clock x bus width, read with a tiny CUDA program).
topology() {
  local n; n=$(gpu_count)
  ONE_GPU=0
  if [ "$n" -ge 2 ]; then
    if nvidia-smi topo -m 2>/dev/null | awk '$1 == "GPU0" { exit !($3 ~ /^NV/) }'; then TOPO=nvlink; else TOPO="$n GPUs without NVLink"; fi
  else
    TOPO="1 GPU"
  fi
  PEAK_GBS=0 PEAK_WHAT="unknown"
  local hbm
  hbm=$(cd "$work" && cat > peak.cu <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
int main() { int khz = 0, bits = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0) || cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, 0)) return 1;
  printf("%.0f\n", 2.0 * khz * 1e3 * bits / 8 / 1e9); return 0; }
CU
  nvcc -o peak peak.cu 2>/dev/null && ./peak)
  [ -n "$hbm" ] && PEAK_GBS=$hbm PEAK_WHAT="HBM of GPU 0"
  if [ "$TOPO" = nvlink ]; then
    local nv
    nv=$(nvidia-smi nvlink -s -i 0 2>/dev/null | awk '/GB\/s/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) s += $i } END { if (s > 0) printf "%.0f", s }')
    [ -n "$nv" ] && PEAK_GBS=$nv PEAK_WHAT="NVLink of GPU 0, all links, one direction"
  fi
  export TOPO PEAK_GBS PEAK_WHAT ONE_GPU
}

main() {
  echo "bench-gpu.sh on $(hostname) at $(date -u '+%Y-%m-%d %H:%M:%S') UTC; budget ${budget}s"
  nvidia-smi -L 2>&1 | head -8
  nvidia-smi topo -m 2>&1 | head -6
  "$java" -version 2>&1 | head -1

  anchors=$here/anchors
  topology
  echo "== topology: $TOPO; peak for the bandwidth check: ${PEAK_GBS} GB/s (${PEAK_WHAT})"
  if [ "$(gpu_count)" -lt 2 ]; then
    # One GPU: both PEs (jshmem's and NVSHMEM's) share it, under MPS so that their kernels run at the
    # same time. The anchor picks device = rank, which one GPU lacks: a copy picks rank mod count.
    # Figures on one GPU are not NVLink figures; the two libraries are still compared in one run.
    echo "== one GPU: both PEs on it, anchor adapted (device = rank mod device count)"
    mps_start
    # NVSHMEM under plain MPS runs in "limited MPG" mode (its collectives abort): capped at half the
    # SMs per client it runs fully (shared/ANCHORS.md). jshmem's PEs get the same cap (same environment).
    export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50
    ONE_GPU=1
    anchors=$work/anchors && cp -r "$here/anchors" "$anchors"
    sed -i 's/CK(cudaSetDevice(rank));/{ int nd = 1; CK(cudaGetDeviceCount(\&nd)); CK(cudaSetDevice(rank % nd)); }/' \
      "$anchors/nvshmem_anchor.cu"
    grep -q 'rank % nd' "$anchors/nvshmem_anchor.cu" || echo "== could not adapt the anchor"
  fi
  echo
  echo "== NVSHMEM anchor (limit 180s)"
  timeout -k 10 180 bash "$anchors/run-nvshmem.sh" > "$out/anchor-nvshmem.log" 2>&1
  echo "anchor exit status $? after ${SECONDS}s"
  cat "$out/anchor-nvshmem.log"
  grep -q '^barrier_all_on_stream' "$out/anchor-nvshmem.log" || echo "== the anchor did not finish: its figures so far are the baseline"
  bash "$here/anchor-to-csv.sh" --nvshmem -o "$out/nvshmem.csv" "$out/anchor-nvshmem.log" || rm -f "$out/nvshmem.csv"
  grep -q '^nvshmem,' "$out/nvshmem.csv" 2>/dev/null \
    || { rm -f "$out/nvshmem.csv"; echo "== no anchor figures: jshmem runs without a baseline"; }

  # the target figures first, each group in its own job (a hang costs its limit only)
  perf device-bw 75 put_bw barrier_latency --form device
  perf device-latency 75 p_latency put_signal_latency --form device
  perf on_stream 60 put_bw barrier_latency --form on_stream
  perf host 45 put_latency barrier_latency --form host --sizes 8 --iters 1000 --ops put,barrier_all
  # the collectives beside the anchor's (on one GPU: HBM figures, both libraries under the same SM cap)
  perf reduce 45 reduce --form on_stream --types float --ops sum --sizes 1K,1M,64M
  perf fcollect 45 fcollect --form on_stream --sizes 1K,1M,64M
  # extras while time is left
  extra device-extra 60 get_bw put_bibw atomic_latency --form device
  extra on_stream-extra 60 get_bw put_bibw put_signal_latency --form on_stream
  extra host-bw 45 put_bw --form host --sizes 4K,1M,256M --iters 20

  combine
  echo
  echo "== summary (after ${SECONDS}s)"
  local csvs=()
  for f in "$out/nvshmem.csv" "$out/jshmem-gpu.csv"; do [ -s "$f" ] && csvs+=("$f"); done
  ONE_GPU=${ONE_GPU:-0} summary ${csvs[@]+"${csvs[@]}"} /dev/null | tee "$out/summary.txt"
  echo
  echo "files in $out: $(cd "$out" && ls | tr '\n' ' ')"
}

main "$@" 2>&1 | tee "$out/bench-gpu.log"
mps_stop
rm -rf "$work"
