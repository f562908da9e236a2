#!/usr/bin/env bash
# Session 2026-11-30c (thirty-fifth), call 1 on 2 x H200. perf's device and on-stream bandwidth and collective loops
# now enqueue a barrier on the stream on every PE before the start event, as the NVSHMEM anchor's loops do
# (GpuClock.timeAfterBarrier). In order, each step with a time limit:
#   1. PerfGpuSmokeTest (every benchmark of the device and on_stream forms, 2 PEs) on the new build;
#   2. bench-gpu.sh: the NVSHMEM anchor, then jshmem's suite beside it, new build;
#   3. the loop before (before/jshmem-tests-*.jar first on the class path: c8f3f27's perf) against the new one,
#      alternated over rounds while time is left: device put_bw 1 / 4 / 256 MB, on-stream put_bw and fcollect 1 / 64 MB,
#      float sum reduce on a stream 1 KB / 1 MB / 64 MB.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call1.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c1; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $w/gpus.csv 2>&1
nvidia-smi topo -m > $w/topo.txt 2>&1
OUT=$w/smoke timeout 150 bash "$here/gpu-run.sh" classes --select-class org.jshmem.perf.PerfGpuSmokeTest > $w/smoke.log 2>&1
echo "smoke rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted)|✘" $w/smoke.log $w/smoke/*.log 2>/dev/null | head -8
OUT=$w/bench BENCH_BUDGET_S=150 timeout 240 bash "$here/bench-gpu.sh" > $w/bench-console.log 2>&1
echo "bench-gpu rc=$? at ${SECONDS}s"
cat $w/bench/summary.txt 2>/dev/null
run() { # name classpath-prefix form benchmarks sizes
  JSHMEM_BACKEND=cuda timeout -k 5 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$2$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
    $4 --form $3 --sizes $5 --progress never --csv $w/ab/$1.csv > $w/ab/$1.log 2>&1
  echo "$1 rc=$? at ${SECONDS}s"
}
both() { # build-name classpath-prefix round
  run $1-dev-r$3 "$2" device put_bw 1M,4M,256M
  run $1-stream-r$3 "$2" on_stream "put_bw fcollect --ops put,fcollect" 1M,64M
  run $1-reduce-r$3 "$2" on_stream "reduce --types float --ops sum" 1K,1M,64M
}
mkdir -p $w/ab
for r in 1 2 3; do
  [ $SECONDS -gt 420 ] && break
  if [ $((r % 2)) = 1 ]; then both new "" $r; both before "$here/before/*:" $r; else both before "$here/before/*:" $r; both new "" $r; fi
done 2>&1 | tee $w/ab/ab.txt
ls /dev/shm > $w/dev-shm-after.txt
cp $w/bench/summary.txt $out/summary.txt 2>/dev/null
tar czf "$out/call1.tgz" -C $w .
