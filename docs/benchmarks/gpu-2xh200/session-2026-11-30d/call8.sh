#!/usr/bin/env bash
# Session 2026-11-30d, call 8 on 2 x H200, the final build (puts between GPUs on the SMs from 1 MB, gets from 256 KB,
# to 4 MB): GpuStreamOpsTest without the debug-trap pass, then perf on_stream put_bw and get_bw at 512 KB and 1 MB.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call8.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$out/tests TRAP_TESTS=0 timeout 100 bash "$here/gpu-run.sh" gpu-tests --include-classname '.*GpuStreamOpsTest' > $out/tests.log 2>&1
echo "GpuStreamOpsTest rc=$? at ${SECONDS}s"; sed 's/\x1b\[[0-9;]*m//g' $out/tests.log | grep -E "tests (successful|failed)|✘" | head -4
JSHMEM_BACKEND=cuda timeout 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain put_bw get_bw \
  --form on_stream --sizes 512K,1M --progress never --csv $out/onstream.csv > $out/onstream.log 2>&1
echo "perf rc=$? at ${SECONDS}s"; grep -E "^ +(512K|1M) " $out/onstream.log
ls /dev/shm > $out/dev-shm-after.txt
