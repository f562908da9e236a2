#!/usr/bin/env bash
# Session 2026-12-01b, call 6 on one H200, after the review mend (side_join: one helper for the three joins of a side stream into the caller's stream; behaviour unchanged), as call 4. Call 4: the flag design ran past the test class's limit again in call 3 (its jobs run
# directly passed); back to call 1's design (events between the lanes and the caller's stream, a launch per chunk),
# with 4 chunks. GpuCollectivesTest and DeviceModuleTest, then GpuCollectivesBench to 64 MB, SM shapes and copy
# engines, two rounds.
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c6; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
part=${1:-all}
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader
. ./one-gpu.sh
if [ "$part" = all ] || [ "$part" = tests ]; then
  OUT=$w/tests TRAP_TESTS=0 timeout 300 bash "$here/gpu-run.sh" classes \
    --select-class org.jshmem.it.coll.GpuCollectivesTest --select-class org.jshmem.it.gpu.DeviceModuleTest > $w/tests.log 2>&1
  echo "tests rc=$? at ${SECONDS}s"
  sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✔|✘|tests (successful|failed|found)|results wrong|expected|chained" | head -30
fi
if [ "$part" = all ] || [ "$part" = bench ]; then
  mps_start > /dev/null
  for round in 1 2; do
    for ce in 0 1M; do
      log=$w/coll-r$round-ce$ce.log
      JSHMEM_GPU_REDUCESCATTER_CE_MIN=$ce JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=2G timeout 120 \
        mpirun -np 2 --oversubscribe java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu \
        -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.gpu.GpuCollectivesBench $w/coll-r$round-ce$ce.csv 64M 5 > $log 2>&1
      echo "== round $round, JSHMEM_GPU_REDUCESCATTER_CE_MIN=$ce: rc=$? at ${SECONDS}s"
      awk -F, '$3 >= 4194304 && $1 ~ /^reduce/ {printf "%s %s %s %s us %s GB/s %s\n", $1, $2, $3, $5, $6, $7}' $w/coll-r$round-ce$ce.csv
      grep -iE "wrong|differ|xception|expected" $log | head -5
    done
  done
  mps_stop > /dev/null
fi
ls /dev/shm > $w/dev-shm-after.txt; echo "dev/shm: $(cat $w/dev-shm-after.txt | wc -l) entries"
tar czf "$out/call6-$part.tgz" -C /tmp c6
