#!/usr/bin/env bash
# Session 2026-11-28 (twentieth), call E on 2 x H200, one PE per GPU: the copy-engine all-scatter counting a tile into
# its chunk at once only in the last two waves (JGEMM_CHUNK_LATE_WAVES=2, this build), against every tile at once as
# before (the same build with -DJGEMM_CHUNK_LATE_WAVES=1000000 through JSHMEM_GEMM_COMPILE_OPTIONS), interleaved, three
# rounds, with the shard alone; then this build validated (1000 back-to-back calls validated again) and GemmGpuTest's
# copy-engine cases.
set -u
here=$(pwd)
w=/tmp/oE; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective dtype shapes [options]
  local name=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 150 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log
}
old() { JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_CHUNK_LATE_WAVES=1000000 g "$@"; }
{
for r in 1 2 3; do
  g new-200-$r all_scatter fp16 8192x8192x8192 --scatter copy_engine --iters 200
  old old-200-$r all_scatter fp16 8192x8192x8192 --scatter copy_engine --iters 200
  g alone-200-$r none fp16 8192x4096x8192 --iters 200
  old old-20-$r all_scatter fp16 4096x8192x8192,8192x8192x8192,16384x8192x8192 --scatter copy_engine
  g new-20-$r all_scatter fp16 4096x8192x8192,8192x8192x8192,16384x8192x8192 --scatter copy_engine
  g new-bf16-$r all_scatter bf16 8192x8192x8192 --scatter copy_engine
  old old-bf16-$r all_scatter bf16 8192x8192x8192 --scatter copy_engine
done
tar czf "$out/callE.tgz" -C $w .
g valid all_scatter fp16 4096x4096x4096,8192x8192x8192 --reference --validate --back-to-back 1000
g valid-bf16 all_scatter bf16 8192x8192x8192,16384x8192x8192,4096x8192x8192 --validate
} 2>&1 | tee $w/sweep.txt
tar czf "$out/callE.tgz" -C $w .
s="java.lang.String"
OUT=$w timeout 300 bash "$here/gpu-run.sh" classes \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callE.tgz" -C $w .
