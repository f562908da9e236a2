#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 9 on 2 x H200: a lone aligned 4- or 8-byte word copied inline by one store
# (jshmem_copy.h), against the build before (before/shmem-device.jar first on the class path: its headers compile
# the perf kernels). First the tests of the new build (DeviceApiTest with its new byte runs, the trap cases,
# GpuCollectivesTest); then perf's device p and put_signal latencies and 4 KB put, both builds alternated, three
# rounds. Run as cd .devpack && bash on-device.sh bash call9.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o9; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$w/tests timeout 200 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.DeviceApiTest \
  --select-class org.jshmem.it.gpu.GpuCollectivesTest > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted)|✘" $w/tests.log $w/tests/*.log 2>/dev/null | head -12
p() { # name classpath-prefix
  JSHMEM_BACKEND=cuda timeout -k 5 40 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$2$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
    p_latency put_signal_latency put_bw --form device --sizes 8,4K --progress never --csv $w/$1.csv > $w/$1.log 2>&1
  echo "$1 rc=$? at ${SECONDS}s: $(grep -E '^\s+(8|4K) ' $w/$1.log | awk '{printf "%s %s | ", $1, $3}')"
}
for r in 1 2 3; do
  [ $SECONDS -gt 470 ] && break
  if [ $((r % 2)) = 1 ]; then p new-r$r ""; p before-r$r "$here/before/*:"; else p before-r$r "$here/before/*:"; p new-r$r ""; fi
done 2>&1 | tee $w/ab.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call9.tgz" -C $w .
