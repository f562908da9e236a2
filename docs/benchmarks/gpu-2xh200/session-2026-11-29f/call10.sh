#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 10 on 2 x H200: call 9 again with the lone-word path tested after the 16-byte
# case (call 9 had it first, and the 4 KB device put ran 8% slower), and with GpuCollectivesTest by its right name
# (call 9 named a class that does not exist, so only the trap cases ran). Tests of the new build first, then perf's
# device put_signal latency and 8 B / 4 KB put, the new build and the one before (before/shmem-device.jar first on
# the class path) alternated, two rounds. Run as cd .devpack && bash on-device.sh bash call10.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o10; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$w/t1 timeout 100 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.DeviceApiTest > $w/tests1.log 2>&1
echo "DeviceApiTest rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted)|✘" $w/tests1.log | head -8
OUT=$w/t2 timeout 120 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.coll.GpuCollectivesTest > $w/tests2.log 2>&1
echo "GpuCollectivesTest rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted)|✘" $w/tests2.log | head -8
p() { # name classpath-prefix
  JSHMEM_BACKEND=cuda timeout -k 5 40 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$2$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
    p_latency put_signal_latency put_bw --form device --sizes 8,4K --progress never --csv $w/$1.csv > $w/$1.log 2>&1
  echo "$1 rc=$? at ${SECONDS}s: $(grep -E '^\s+(8|4K) ' $w/$1.log | awk '{printf "%s %s | ", $1, $3}')"
}
for r in 1 2; do
  [ $SECONDS -gt 290 ] && break
  if [ $((r % 2)) = 1 ]; then p new-r$r ""; p before-r$r "$here/before/*:"; else p before-r$r "$here/before/*:"; p new-r$r ""; fi
done 2>&1 | tee $w/ab.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call10.tgz" -C $w .
