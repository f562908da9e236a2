#!/usr/bin/env bash
# Session 2026-11-30f, call 7 on 2 x H200, the final build (the all-scatter's last chunk by jgemm_scatter_tail, no
# experiment code), one PE per GPU unless a case runs 3 PEs (two share a GPU under MPS):
#   1. GemmGpuTest, whole (every fused form; the copy-engine all-scatter with 4, 3 and 1 chunks, 2 and 3 PEs, the
#      portable kernel, 1000 calls back to back), without the debug-trap pass;
#   2. gpu-run.sh tp: PyTorch's anchor, the all-scatter's shard alone, the fused forms validated (and after 100 calls
#      back to back), GpuCollectivesBench to 64 MB.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call7.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c7; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
OUT=$w/tests TRAP_TESTS=0 timeout 330 bash "$here/gpu-run.sh" gpu-tests --include-classname '.*GemmGpuTest' > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? at ${SECONDS}s"; sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "tests (successful|failed|found)|✘" | head -12
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
