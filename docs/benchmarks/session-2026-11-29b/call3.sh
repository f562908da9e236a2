#!/usr/bin/env bash
# Session 2026-11-29b, call 3 on one H200 (issue 13): chained launches (programmatic dependent launch). First
# DeviceModuleTest (its new chained case among the others). Then gemm-ext's GEMM without a collective, whose calls
# are now chained, against the same build with JSHMEM_GPU_LAUNCH_CHAINING=0 (plain launches), alternated, three
# rounds, bf16, validated, cuBLAS timed alike; one shape per process.
set -u
here=$(pwd)
w=/tmp/o3s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$w/junit bash gpu-run.sh classes --select-class org.jshmem.it.gpu.DeviceModuleTest > $w/device-module.log 2>&1
echo "DeviceModuleTest rc=$? $(grep -E 'tests (successful|failed)' $w/device-module.log | tr -s ' ' | tr '\n' ' ') at ${SECONDS}s" | tee $w/summary.txt
g() { # variant(chained|plain) name shapes
  local v=$1 name=$2 shapes=$3; shift 3
  local c=1; [ $v = plain ] && c=0
  JSHMEM_GPU_LAUNCH_CHAINING=$c JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 \
    -x JSHMEM_GPU_LAUNCH_CHAINING java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes "$shapes" --dtype bf16 --iters 20 --warmup 5 --validate --reference \
    "$@" --csv $w/$v-$name.csv > $w/$v-$name.log 2>&1
  echo "$v $name rc=$? PASS=$(grep -c PASS $w/$v-$name.log) FAIL=$(grep -c FAIL $w/$v-$name.log) at ${SECONDS}s"
}
{
for r in 1 2 3; do
  for s in 2048x2048x2048 128x8192x8192 256x8192x4096 5120x5120x2048 4096x4096x4096; do
    for v in chained plain; do g $v B$s-$r $s; done
  done
done
} 2>&1 | tee -a $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
