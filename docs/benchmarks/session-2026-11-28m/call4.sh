#!/usr/bin/env bash
# Session 2026-11-28 (twenty-third), call 4 on 2 x H200: GpuCollectivesBench's blocking 1 KB reduce said 38.5 us in
# call 2 where BlockingProbe, warmed by 3000 calls, measured 12-13.5. WarmProbe (probe/, not kept) times it as the
# bench does (20 calls, then 5 reps of 200, the median of the reps' means), 40 rounds in a row: does it settle?
set -u
here=$(pwd)
w=/tmp/o4; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/probe:$here/lib/*:$here/mpi.jar"
SECONDS=0
{
echo "== WarmProbe"
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 200 mpirun -np 2 java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" WarmProbe 2>&1 | tee $w/warm.log | grep round
echo "== WarmProbe, -XX:+PrintCompilation on PE 0's org.jshmem frames"
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 200 mpirun -np 2 java --enable-native-access=ALL-UNNAMED \
  -XX:+PrintCompilation -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" WarmProbe > $w/warm-comp.log 2>&1
grep round $w/warm-comp.log | head -12
echo "rc=$? at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
