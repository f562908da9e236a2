#!/usr/bin/env bash
# Session 2026-11-30g, call 7 on 2 x H200, the final build (6d9b3b5: call 6's kernels; auto takes the copy engines from
# 45 GFLOP per PE and more than one chunk), one PE per GPU unless a case runs 3 PEs (two share a GPU under MPS):
#   1. GemmGpuTest: validatesAgainstCublas whole (every fused form and both all-scatter transports), B n x k's
#      copy-engine cases, the copy-engine all-scatter 1000 calls back to back; MPS stopped afterwards whatever happened;
#   2. the all-scatter 4096^3 fp16 on auto (the transport it chose), validated;
#   3. gpu-run.sh tp: PyTorch's anchor, the all-scatter's shard alone, the fused forms validated (and after 100 calls
#      back to back), GpuCollectivesBench to 64 MB.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call7.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c7; mkdir -p $w/runs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
t=org.jshmem.it.gpu.GemmGpuTest
s5="int,java.lang.String,java.lang.String,java.lang.String,java.lang.String"
OUT=$w/tests TRAP_TESTS=0 timeout 270 bash "$here/gpu-run.sh" classes \
  --select-method "$t#validatesAgainstCublas($s5)" \
  --select-iteration "method:$t#transposedBValidatesAgainstCublas($s5)[7..8]" \
  --select-iteration "method:$t#thousandCallsBackToBack(java.lang.String,java.lang.String,java.lang.String)[1..2]" \
  > $w/tests.log 2>&1
echo "GemmGpuTest selection rc=$? at ${SECONDS}s"
bash "$here/gpu-run.sh" cmd mps_stop > /dev/null 2>&1; pkill -f GemmMain; sleep 1
sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✔|✘|tests (successful|failed|found)" | head -40
env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --oversubscribe java \
  --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
  org.jshmem.gemm.cli.GemmMain -c all_scatter --shapes 4096x4096x4096 --dtype fp16 --validate --iters 20 --warmup 5 \
  --path fused > $w/runs/auto-4096.log 2>&1
echo "auto 4096^3 rc=$? at ${SECONDS}s: PASS $(grep -c PASS $w/runs/auto-4096.log)"
grep -hE "^all_scatter |copy engines|kernel's stores" $w/runs/auto-4096.log | cut -c1-400 | head -3
left=$((585 - SECONDS))
OUT=$w/tp timeout $left bash "$here/gpu-run.sh" tp > $w/tp-console.log 2>&1
echo "tp rc=$? at ${SECONDS}s"
grep -hE "PASS|FAIL|mismatch" $w/tp/tp.log | grep -c PASS
grep -hE "FAIL|mismatch" $w/tp/tp.log | head
grep -hE "scatter|gather|mm" $w/tp/torch-anchor.log | tail -8
grep -hE "^(none|all_scatter|all_gather_gemm|gemm_reduce_scatter|all_reduce) " $w/tp/tp.log
grep -E "reduce_scatter|reduce_sum|fcollect" $w/tp/tp-coll.csv 2>/dev/null | grep -E ",(67108864|33554432)," | head
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
