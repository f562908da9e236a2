#!/usr/bin/env bash
# Session 2026-11-28, call C (4 x H100) on the final build: 1) GpuCollectivesTest (its new 4-PE case: rotated and
# all-at-once two-shot), GpuStreamOpsTest and DeviceProxyTest, a GEMM validated; 2) launch cost, interleaved: LaunchProbe.java with the
# before/ and new jars, twice each, and launch_probe.cu (C++) between them.
set -u
here=$(pwd)
w=/tmp/oC; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
for t in coll.GpuCollectivesTest gpu.GpuStreamOpsTest gpu.DeviceProxyTest; do
  OUT=$w timeout 330 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.$t > $w/test-${t#*.}.log 2>&1
  echo "$t rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/test-${t#*.}.log | head -8
  tar czf "$out/callC.tgz" -C $w .
done
# the Hopper GEMM's launches pass CUtensorMaps by value: through the reused parameter buffer now
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=2G timeout 120 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.gemm.cli.GemmMain -c none \
  --shapes 4096x4096x4096,8192x8192x8192 --dtype bf16 --validate --csv $w/gemm.csv > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) at ${SECONDS}s: $(grep -v '^#' $w/gemm.csv | cut -d, -f1-6 | tr '\n' ' ')"
export PATH=/usr/local/cuda/bin:$PATH
nvcc -O2 -arch=sm_90a probe/launch_probe.cu -lcuda -lnvrtc -o $w/launch_probe > $w/nvcc.log 2>&1
cpof() { if [ $1 = before ]; then echo "$here/before/shmem-device-0.1.0-SNAPSHOT.jar:$here/before/shmem-core-0.1.0-SNAPSHOT.jar:$here/lib/*:$here/mpi.jar"; else echo "$here/lib/*:$here/mpi.jar"; fi; }
for r in 1 2; do
  for v in before new; do
    CUDA_VISIBLE_DEVICES=0 JSHMEM_BACKEND=cuda timeout 90 mpirun -np 1 --bind-to none java --enable-native-access=ALL-UNNAMED \
      -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/probe-classes:$(cpof $v)" LaunchProbe > $w/launch-java-$v-$r.txt 2>&1
    echo "LaunchProbe $v $r rc=$?"; grep round $w/launch-java-$v-$r.txt | tail -2
  done
  CUDA_VISIBLE_DEVICES=0 timeout 60 $w/launch_probe > $w/launch-cpp-$r.txt 2>&1; echo "C++ $r rc=$?"; tail -2 $w/launch-cpp-$r.txt
done
tar czf "$out/callC.tgz" -C $w .
