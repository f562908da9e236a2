#!/usr/bin/env bash
# Session 2026-11-28 (twenty-third), call 2 on 2 x H200: where a host-called 1 KB all-reduce's time goes (issue 19's
# row: at most 8 us; GpuCollectivesBench measured 24-37 us in the last runs, more than a 1 MB one). BlockingProbe
# (probe/, an experiment not kept) times each call on the host: p10/p50/p90/p99 of 2000 calls, back to back and
# with a barrier before each, for the blocking reduce and fcollect, the same reduce on a stream + synchronize, a
# barrier on a stream + synchronize, an empty synchronize and the host team barrier. Then with chained launches
# off, then GpuCollectivesBench to 1 MB.
set -u
here=$(pwd)
w=/tmp/o2; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/probe:$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; nproc; } > $w/machine.txt 2>&1
SECONDS=0
j() { # name main [args]
  local name=$1; shift
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 200 mpirun -np 2 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" "$@" > $w/$name.log 2>&1
  echo "== $name rc=$? at ${SECONDS}s"; grep -E "^PE|us|results" $w/$name.log | head -40
}
{
j probe-default BlockingProbe all
JSHMEM_GPU_LAUNCH_CHAINING=0 j probe-nochain BlockingProbe
j coll org.jshmem.perf.gpu.GpuCollectivesBench $w/coll.csv 1M 5
j probe-again BlockingProbe
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
