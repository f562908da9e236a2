#!/usr/bin/env bash
# Session 2026-11-30c (thirty-fifth), call 3 on 2 x H200. Two things:
#   1. Is the 1 KB sum reduce on a stream slower after the anchor's barrier (call 1: 4.04 -> 4.26 us in three rounds)?
#      perf's loop before (before/perf-before-c8f3f27.jar first on the class path) and now, alternated over eight
#      rounds: reduce --types float --ops sum --sizes 1K,64K, on_stream form, 2 PEs, a GPU each.
#   2. gpu-run.sh scaling 2: the 64 MB collectives (the reduce-scatter among them) beside NVSHMEM, NCCL and torch
#      symmetric memory, while time is left.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call3.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c3; mkdir -p $w/ab
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
run() { # name classpath-prefix
  JSHMEM_BACKEND=cuda timeout -k 5 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$2$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
    reduce --types float --ops sum --form on_stream --sizes 1K,64K --progress never --csv $w/ab/$1.csv > $w/ab/$1.log 2>&1
  echo "$1 rc=$? at ${SECONDS}s: $(grep -E '^\s+(1K|64K) ' $w/ab/$1.log | awk '{printf "%s %s | ", $1, $3}')"
}
for r in 1 2 3 4 5 6 7 8; do
  [ $SECONDS -gt 200 ] && break
  if [ $((r % 2)) = 1 ]; then run new-r$r ""; run before-r$r "$here/before/*:"; else run before-r$r "$here/before/*:"; run new-r$r ""; fi
done 2>&1 | tee $w/ab/ab.txt
OUT=$w/scaling timeout 330 bash "$here/gpu-run.sh" scaling 2 > $w/scaling-console.log 2>&1
echo "scaling rc=$? at ${SECONDS}s"
grep -E "reduce_scatter|reduce_sum|fcollect" $w/scaling/gpu-coll-2pe.csv 2>/dev/null | grep -E ",67108864," | head
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
