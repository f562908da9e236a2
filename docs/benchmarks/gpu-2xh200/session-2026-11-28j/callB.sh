#!/usr/bin/env bash
# Session 2026-11-28 (twentieth), call B on 2 x H200, one PE per GPU: the copy-engine all-scatter with its last chunk
# copied from the caller's stream (this build) against the build before (variant/gemm-ext-before.jar first on the
# class path: every chunk from the scatter stream, then an event between the streams), interleaved, three rounds;
# then this build validated (1000 back-to-back calls validated again), GpuStreamOpsTest and GemmGpuTest's
# validations and back-to-back cases.
set -u
here=$(pwd)
w=/tmp/oB; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
B="$here/variant/gemm-ext-before.jar:$cp"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name classpath collective dtype shapes [options]
  local name=$1 c=$3 dt=$4 shapes=$5 path=$2; shift 5
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 150 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$path" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log
}
{
for r in 1 2 3; do
  g before-200-$r "$B" all_scatter fp16 8192x8192x8192 --scatter copy_engine --iters 200
  g after-200-$r "$cp" all_scatter fp16 8192x8192x8192 --scatter copy_engine --iters 200
  g alone-200-$r "$cp" none fp16 8192x4096x8192 --iters 200
  g after-20-$r "$cp" all_scatter fp16 4096x8192x8192,8192x8192x8192,16384x8192x8192 --scatter copy_engine
  g before-20-$r "$B" all_scatter fp16 4096x8192x8192,8192x8192x8192,16384x8192x8192 --scatter copy_engine
  g after-bf16-$r "$cp" all_scatter bf16 8192x8192x8192 --scatter copy_engine
  g before-bf16-$r "$B" all_scatter bf16 8192x8192x8192 --scatter copy_engine
done
tar czf "$out/callB.tgz" -C $w .
g valid "$cp" all_scatter fp16 4096x4096x4096,8192x8192x8192 --reference --validate --back-to-back 1000
g valid-bf16 "$cp" all_scatter bf16 8192x8192x8192,16384x8192x8192 --validate
} 2>&1 | tee $w/sweep.txt
tar czf "$out/callB.tgz" -C $w .
s="java.lang.String"
OUT=$w timeout 360 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callB.tgz" -C $w .
