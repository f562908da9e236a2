#!/usr/bin/env bash
# Session 2026-11-27d, 2 GPUs: the GEMM alone beside cuBLAS (run-gemm.sh, validated, GPU 0);
# GpuCollectivesTest's default job (its chains now end in 20 reduce-scatters) and the three-block job,
# one PE per GPU; GpuCollectivesBench with every timed collective in its warm-up.
set -u
here=$(pwd)
w=/tmp/o; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/machine.txt 2>&1; cat $w/machine.txt
cp="$here/lib/*:$here/mpi.jar"
echo "== 1. gemm alone + cuBLAS anchor (GPU 0)"
SECONDS=0
CUDA_VISIBLE_DEVICES=0 OUT=$w/gemm timeout 300 bash gpu-run.sh gemm > $w/gemm.log 2>&1; echo "gemm rc=$? in ${SECONDS}s"
echo "PASS lines: $(grep -c PASS $w/gemm.log), FAIL lines: $(grep -c FAIL $w/gemm.log)"
tar czf "$out/call20.tgz" -C $w .
echo "== 2. GpuCollectivesTest"
SECONDS=0
OUT=$w/t timeout 240 bash gpu-run.sh classes --select-method \
  'org.jshmem.it.coll.GpuCollectivesTest#everyCollectiveBlockingAndOnAStream' --select-method \
  'org.jshmem.it.coll.GpuCollectivesTest#threeBlocksWithLongGridStrideLoops' > $w/test.log 2>&1
echo "test rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)" $w/test.log | head -4
tar czf "$out/call20.tgz" -C $w .
echo "== 3. GpuCollectivesBench, 2 PEs"
bash gpu-run.sh cmd env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 150 mpirun -np 2 java \
  --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
  org.jshmem.perf.gpu.GpuCollectivesBench "$w/coll.csv" 64M 5 > "$w/coll.log" 2>&1
echo "bench rc=$?"; grep -E ",(1024|4096|67108864)," $w/coll.csv | grep stream | cut -d, -f1,3,5,6
tar czf "$out/call20.tgz" -C $w .
