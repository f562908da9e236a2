#!/usr/bin/env bash
# Session 2026-11-30d, call 7 on 2 x H200, the final build of the change (a put between GPUs on the SMs from 512 KB,
# a get from 256 KB, to 4 MB, launched chained):
#   1. GpuStreamOpsTest, one GPU per PE, and the API suite on cuda (ApiTest on 1-4 PEs, DeviceApiTest), without the
#      debug-trap pass;
#   2. perf on_stream put_bw get_bw put_bibw 256K-4M, this build's default against JSHMEM_SM_COPY_MAX=0 (the copy
#      engine), one round each;
#   3. bench-gpu.sh: the NVSHMEM anchor, then jshmem's suite beside it.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call7.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c7; mkdir -p $w/ab
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
OUT=$w/tests TRAP_TESTS=0 timeout 240 bash "$here/gpu-run.sh" tests --include-classname '.*(GpuStreamOpsTest|ApiTest)' > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "tests (successful|failed)|✘|Test ✔|Test ✘" | head -12
p() { # name [env...]
  local name=$1; shift
  env "$@" JSHMEM_BACKEND=cuda timeout 90 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain put_bw get_bw put_bibw --form on_stream \
    --sizes 256K,512K,1M,2M,4M --progress never --library $name --csv $w/ab/$name.csv > $w/ab/$name.log 2>&1
  echo "== $name rc=$? at ${SECONDS}s"
  grep -v "^#" $w/ab/$name.csv | grep -v "^library" | awk -F, '{printf "%s %s %s %s\n", $2, $7, $11, $12}' | tr '\n' ';'; echo
}
{ p new-1; p ce-1 JSHMEM_SM_COPY_MAX=0; } 2>&1 | tee $w/ab/summary.txt
OUT=$w/bench BENCH_BUDGET_S=150 timeout 250 bash "$here/bench-gpu.sh" > $w/bench-console.log 2>&1
echo "bench-gpu rc=$? at ${SECONDS}s"
cat $w/bench/summary.txt 2>/dev/null
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
