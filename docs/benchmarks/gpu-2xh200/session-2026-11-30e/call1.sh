#!/usr/bin/env bash
# Session 2026-11-30e (thirty-eighth), call 1 on 2 x H200, the build as committed at 9624760 (on-stream puts between
# GPUs on the SMs from 1 MiB, gets from 256 KiB, to 4 MiB, chained); the run that session 2026-11-30d's call 8 could
# not make, then the standing rows:
#   1. GpuStreamOpsTest, one GPU per PE, without the debug-trap pass;
#   2. perf on_stream put_bw get_bw at 512K and 1M, this build's default against JSHMEM_SM_COPY_MAX=0 (the copy
#      engine), alternated over two rounds;
#   3. bench-gpu.sh: the NVSHMEM anchor, then jshmem's suite beside it;
#   4. gpu-run.sh tp: PyTorch's anchor, the all-scatter's shard alone, the fused forms validated, GpuCollectivesBench.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call1.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c1; mkdir -p $w/ab
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
OUT=$w/tests TRAP_TESTS=0 timeout 120 bash "$here/gpu-run.sh" gpu-tests --include-classname '.*GpuStreamOpsTest' > $w/tests.log 2>&1
echo "GpuStreamOpsTest rc=$? at ${SECONDS}s"; sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "tests (successful|failed)|✘" | head -6
p() { # name [env...]
  local name=$1; shift
  env "$@" JSHMEM_BACKEND=cuda timeout 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain put_bw get_bw --form on_stream \
    --sizes 512K,1M --progress never --library $name --csv $w/ab/$name.csv > $w/ab/$name.log 2>&1
  echo "== $name rc=$? at ${SECONDS}s"
  grep -v "^#" $w/ab/$name.csv | grep -v "^library" | awk -F, '{printf "%s %s %s %s\n", $2, $7, $11, $12}' | tr '\n' ';'; echo
}
{ p new-1; p ce-1 JSHMEM_SM_COPY_MAX=0; p ce-2 JSHMEM_SM_COPY_MAX=0; p new-2; } 2>&1 | tee $w/ab/summary.txt
OUT=$w/bench BENCH_BUDGET_S=150 timeout 250 bash "$here/bench-gpu.sh" > $w/bench-console.log 2>&1
echo "bench-gpu rc=$? at ${SECONDS}s"
cat $w/bench/summary.txt 2>/dev/null
left=$((590 - SECONDS))
OUT=$w/tp timeout $left bash "$here/gpu-run.sh" tp > $w/tp-console.log 2>&1
echo "tp rc=$? at ${SECONDS}s"
grep -hE "PASS|FAIL|mismatch" $w/tp/tp.log | head -30
grep -hiE "ms|TFLOP" $w/tp/torch-anchor.log | tail -12
cat $w/tp/tp-shard-alone.csv $w/tp/tp-fused.csv 2>/dev/null
grep -E "reduce_scatter|reduce_sum|fcollect" $w/tp/tp-coll.csv 2>/dev/null | grep -E ",(67108864|33554432)," | head
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
