#!/usr/bin/env bash
# Session 2026-11-28 (twenty-third), call 3 on 2 x H200: the floor under a host-called collective. launch_probe (probe/,
# an experiment not kept): one process on GPU 0, an empty kernel launched and waited for, several ways; default
# scheduling, spin, yield. Then BlockingProbe on 1 PE (jshmem's round trip without a peer) and on 2 PEs again.
set -u
here=$(pwd)
w=/tmp/o3; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/probe:$here/lib/*:$here/mpi.jar"
SECONDS=0
{
for m in default spin yield; do echo "== launch_probe $m"; CUDA_VISIBLE_DEVICES=0 ./probe/launch_probe $m; done
for np in 1 2; do
  echo "== BlockingProbe np $np"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 200 mpirun -np $np java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" BlockingProbe > $w/probe-np$np.log 2>&1
  echo "rc=$? at ${SECONDS}s"; grep -E "^PE" $w/probe-np$np.log
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
