#!/usr/bin/env bash
# Session 2026-12-01b, call 1 on one H200: the pipelined copy-engine reduce-scatter and two-shot all-reduce.
#   tests: GpuCollectivesTest (every shape; the copy-engine jobs force the new path at every size, 2 and 4 PEs,
#          one lane and three, in place too) and DeviceModuleTest (the chained launch tried up to 5 times);
#   bench: GpuCollectivesBench to 64 MB, 2 PEs under MPS (one-GPU figures: HBM, not NVLink), the SM shapes
#          (default) and the copy engines (JSHMEM_GPU_REDUCESCATTER_CE_MIN=1M), interleaved, two rounds.
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c1; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
part=${1:-all}
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader
if [ "$part" = all ] || [ "$part" = tests ]; then
  OUT=$w/tests TRAP_TESTS=0 timeout 540 bash "$here/gpu-run.sh" classes \
    --select-class org.jshmem.it.coll.GpuCollectivesTest --select-class org.jshmem.it.gpu.DeviceModuleTest > $w/tests.log 2>&1
  echo "tests rc=$? at ${SECONDS}s"
  sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✔|✘|tests (successful|failed|found)|results wrong|expected|chained" | head -40
fi
if [ "$part" = all ] || [ "$part" = bench ]; then
  . ./one-gpu.sh
  mps_start > /dev/null
  for round in 1 2; do
    for ce in 0 1M; do
      log=$w/coll-r$round-ce$ce.log
      JSHMEM_GPU_REDUCESCATTER_CE_MIN=$ce JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=2G timeout 200 mpirun -np 2 \
        --oversubscribe java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu \
        -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.gpu.GpuCollectivesBench $w/coll-r$round-ce$ce.csv 64M 5 > $log 2>&1
      echo "== round $round, JSHMEM_GPU_REDUCESCATTER_CE_MIN=$ce: rc=$? at ${SECONDS}s"
      awk -F, '$3 >= 1048576' $w/coll-r$round-ce$ce.csv | grep -v "^fcollect"
      grep -iE "wrong|differ|xception|expected" $log | head -5
    done
  done
  mps_stop > /dev/null
fi
ls /dev/shm > $w/dev-shm-after.txt; echo "dev/shm: $(cat $w/dev-shm-after.txt | wc -l) entries"
cp -r $w "$out/call1-$part"
