#!/usr/bin/env bash
# Session 2026-11-28 (twenty-third), call 5 on 2 x H200: GpuCollectivesBench with its host-called reduce and fcollect
# warmed by 10000 calls each before timing (this session's change), two runs, to 64 MB, one PE per GPU, as
# gpu-run.sh scaling launches it.
set -u
here=$(pwd)
w=/tmp/o5; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
{
for r in 1 2; do
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 250 mpirun -np 2 --oversubscribe java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.gpu.GpuCollectivesBench $w/coll-$r.csv 64M 5 > $w/coll-$r.log 2>&1
  echo "== run $r rc=$? at ${SECONDS}s"
  grep -E "blocking|barrier|results" $w/coll-$r.log | grep -v "^#.*measured: [a-z_]* stream" | head -12
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
