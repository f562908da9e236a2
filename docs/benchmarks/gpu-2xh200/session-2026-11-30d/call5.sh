#!/usr/bin/env bash
# Session 2026-11-30d, call 5 on 2 x H200: the change (on-stream copies between GPUs of 256 KB to 4 MB on the SMs,
# launched chained, where no GPU is shared by several PEs):
#   1. GpuStreamOpsTest, one GPU per PE (on-stream put/get of 1 MiB + 24 bytes, the registered buffer, and the new
#      back-to-back case: two puts then a get on one stream), without the debug-trap pass;
#   2. perf on_stream put_bw get_bw 4K-16M, this build's default against JSHMEM_SM_COPY_MAX=0 (every on-stream copy
#      on a copy engine, as before), alternated over three rounds;
#   3. bench-gpu.sh: the NVSHMEM anchor, then jshmem's suite beside it.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call5.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c5; mkdir -p $w/ab
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
OUT=$w/tests TRAP_TESTS=0 timeout 240 bash "$here/gpu-run.sh" gpu-tests --include-classname '.*GpuStreamOpsTest' > $w/tests.log 2>&1
echo "GpuStreamOpsTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/tests.log | head -5
p() { # name [env...]
  local name=$1; shift
  env "$@" JSHMEM_BACKEND=cuda timeout 90 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain put_bw get_bw --form on_stream \
    --min 4K --max 16M --factor 4 --progress never --library $name --csv $w/ab/$name.csv > $w/ab/$name.log 2>&1
  echo "== $name rc=$? at ${SECONDS}s"
  grep -v "^#" $w/ab/$name.csv | grep -v "^library" | awk -F, '{printf "%s %s %s %s\n", $2, $7, $11, $12}' | tr '\n' ';'; echo
}
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then p new-$r; p ce-$r JSHMEM_SM_COPY_MAX=0; else p ce-$r JSHMEM_SM_COPY_MAX=0; p new-$r; fi
done 2>&1 | tee $w/ab/summary.txt
OUT=$w/bench BENCH_BUDGET_S=150 timeout 250 bash "$here/bench-gpu.sh" > $w/bench-console.log 2>&1
echo "bench-gpu rc=$? at ${SECONDS}s"
cat $w/bench/summary.txt 2>/dev/null
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
