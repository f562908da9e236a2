#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 1 on 2 x H200: do the host-bound rows of issue 19 (on-stream put 4-16 KB,
# host put 8 B + quiet, the launch behind barrier on a stream) depend on the CPU the calling thread runs on?
# session-2026-11-29f had on-stream put 4 KB at 1.58 GB/s (NVSHMEM 2.20), session-2026-11-27g at 2.33 (NVSHMEM 2.2).
#  1. host_path_probe.cu (C, one process, GPU 0 into GPU 1) pinned to each of 16 CPUs in turn;
#  2. jshmem perf (on_stream put_bw 4K-64K, host put_latency 8 B) as bench-gpu.sh runs it (--bind-to none), then
#     under taskset on two CPU ranges, then as first again; the NVSHMEM anchor between.
# Run as   cd .devpack && bash on-device.sh bash call1.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o1; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,pci.bus_id,power.limit --format=csv; nvidia-smi topo -m; lscpu;
  ls /sys/devices/system/node; for d in /sys/bus/pci/devices/*; do
    [ "$(cat $d/vendor 2>/dev/null)" = 0x10de ] && echo "$d numa_node=$(cat $d/numa_node) local_cpulist=$(cat $d/local_cpulist)"; done
} > $w/machine.txt 2>&1
nvcc -O2 -arch=sm_90 -o /tmp/host_path host_path_probe.cu > $w/build.log 2>&1 || { cat $w/build.log; exit 1; }
jperf() {   # jperf NAME PREFIX... : the two perf runs under an optional prefix (taskset)
  local name=$1; shift
  for f in "on_stream put_bw --sizes 4K,16K,64K" "host put_latency --sizes 8 --iters 1000 --ops put"; do
    local form=${f%% *} rest=${f#* }
    JSHMEM_BACKEND=cuda timeout -k 10 60 "$@" mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
      -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
      $rest --form $form --progress never --csv $w/perf-$name-$form.csv > $w/perf-$name-$form.log 2>&1
    grep -h -v '^#' $w/perf-$name-$form.csv | grep -v '^library' | cut -d, -f2,3,7,11 | sed "s/^/$name,/"
  done
}
SECONDS=0
{
echo "== probe 4 KB at ${SECONDS}s"; /tmp/host_path 4096 0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30
echo "== probe 16 KB at ${SECONDS}s"; /tmp/host_path 16384 0 8 16 24
echo "== jshmem as bench-gpu at ${SECONDS}s"; jperf none
echo "== jshmem taskset 0-7 at ${SECONDS}s"; jperf cpu0-7 taskset -c 0-7
echo "== NVSHMEM anchor at ${SECONDS}s"; bash "$here/anchors/run-nvshmem.sh" > $w/nvshmem.log 2>&1
grep -E -i 'bytes|^ +(4096|16384|65536) |putmem 8B' $w/nvshmem.log | head -8
echo "== jshmem taskset 16-23 at ${SECONDS}s"; jperf cpu16-23 taskset -c 16-23
echo "== jshmem as bench-gpu again at ${SECONDS}s"; jperf none2
echo "== probe 4 KB again at ${SECONDS}s"; /tmp/host_path 4096 0 8 16 24 31
echo "== done at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
