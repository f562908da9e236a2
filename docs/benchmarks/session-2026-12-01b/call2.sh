#!/usr/bin/env bash
# Session 2026-12-01b, call 2 on one H200: the copy-engine reductions counted by flags (one kernel per call that
# waits for each chunk's stream-written count; the all-reduce's pushes wait for the blocks' counts by stream waits).
#   tests: GpuCollectivesTest (the copy-engine jobs force the path at every size, 2 and 4 PEs, 1 and 3 lanes, in place);
#   bench: GpuCollectivesBench to 64 MB, 2 PEs under MPS (one-GPU figures), SM shapes against the copy engines with
#          8 chunks (the build), 4 and 16 (variants/c4, c16 through JSHMEM_NATIVE_DIR), interleaved, two rounds.
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c2; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
part=${1:-all}
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader
if [ "$part" = all ] || [ "$part" = tests ]; then
  OUT=$w/tests TRAP_TESTS=0 timeout 400 bash "$here/gpu-run.sh" classes \
    --select-class org.jshmem.it.coll.GpuCollectivesTest > $w/tests.log 2>&1
  echo "tests rc=$? at ${SECONDS}s"
  sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✔|✘|tests (successful|failed|found)|results wrong|expected" | head -30
fi
if [ "$part" = all ] || [ "$part" = bench ]; then
  . ./one-gpu.sh
  mps_start > /dev/null
  for round in 1 2; do
    for v in sm ce8 ce4 ce16; do
      log=$w/coll-r$round-$v.log
      ce=1M; [ $v = sm ] && ce=0
      nd=; [ $v = ce4 ] && nd=$here/variants/c4; [ $v = ce16 ] && nd=$here/variants/c16
      JSHMEM_NATIVE_DIR=$nd JSHMEM_GPU_REDUCESCATTER_CE_MIN=$ce JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=2G timeout 120 \
        mpirun -np 2 --oversubscribe java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu \
        -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.gpu.GpuCollectivesBench $w/coll-r$round-$v.csv 64M 5 > $log 2>&1
      echo "== round $round, $v: rc=$? at ${SECONDS}s"
      awk -F, '$3 >= 4194304 && $1 != "fcollect" {printf "%s %s %s %s us %s GB/s %s\n", $1, $2, $3, $5, $6, $7}' $w/coll-r$round-$v.csv
      grep -iE "wrong|differ|xception|expected" $log | head -5
    done
  done
  mps_stop > /dev/null
fi
ls /dev/shm > $w/dev-shm-after.txt; echo "dev/shm: $(cat $w/dev-shm-after.txt | wc -l) entries"
cp -r $w "$out/call2-$part"
