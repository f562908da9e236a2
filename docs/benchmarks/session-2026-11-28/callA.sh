#!/usr/bin/env bash
# Session 2026-11-28, call A (4-GPU machine; 2-PE parts on GPUs 0 and 1): 1) where a launch's time goes:
# launch_probe.cu (runtime <<<>>>, cuLaunchKernel, NVRTC module) and LaunchProbe.java (Kernel.launch, raw
# Shim.launch), before/ and new jars; 2) device put_bw 4K-1M and on-stream barrier / 1 KB reduce, before/new;
# 3) GpuCollectivesBench to 16 KB before/new (the 1 KB first-size outlier); 4) DeviceApiTest on the new build.
set -u
here=$(pwd)
w=/tmp/oA; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
export PATH=/usr/local/cuda/bin:$PATH
nvcc -O2 -arch=sm_90a probe/launch_probe.cu -lcuda -lnvrtc -o $w/launch_probe > $w/nvcc.log 2>&1; echo "nvcc rc=$?"
CUDA_VISIBLE_DEVICES=0 timeout 60 $w/launch_probe > $w/launch-cpp.txt 2>&1; echo "launch_probe rc=$?"; cat $w/launch-cpp.txt
javac -d $w/probe-classes -cp "$here/lib/*" probe/LaunchProbe.java > $w/javac.log 2>&1; echo "javac rc=$?"; head -5 $w/javac.log
cpof() { if [ $1 = before ]; then echo "$here/before/shmem-device-0.1.0-SNAPSHOT.jar:$here/before/shmem-core-0.1.0-SNAPSHOT.jar:$here/lib/*:$here/mpi.jar"; else echo "$here/lib/*:$here/mpi.jar"; fi; }
for v in before new; do
  CUDA_VISIBLE_DEVICES=0 JSHMEM_BACKEND=cuda timeout 90 mpirun -np 1 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$w/probe-classes:$(cpof $v)" LaunchProbe > $w/launch-java-$v.txt 2>&1
  echo "LaunchProbe $v rc=$?"; grep round $w/launch-java-$v.txt
done
tar czf "$out/callA.tgz" -C $w .
export CUDA_VISIBLE_DEVICES=0,1
mkdir -p $w/perf
perf() { # variant tag args...
  local v=$1 tag=$2; shift 2
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 120 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$(cpof $v)" org.jshmem.perf.PerfMain "$@" --progress never \
    --csv $w/perf/$tag-$v.csv > $w/perf/$tag-$v.log 2>&1
  echo "$tag $v rc=$? at ${SECONDS}s: $(grep -E '^jshmem,' $w/perf/$tag-$v.csv | cut -d, -f2-4,7 | tr '\n' ' ')"
}
for v in before new; do
  perf $v put put_bw --sizes 4K,64K,1M --reps 5 --form device
  perf $v sync barrier_latency --ops barrier_all --form on_stream --reps 5
  perf $v red reduce --ops sum --types float --sizes 1K --form on_stream --reps 5
done
tar czf "$out/callA.tgz" -C $w .
mkdir -p $w/coll
for v in before new before new; do
  r=$([ -f $w/coll/$v-1.csv ] && echo 2 || echo 1)
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 120 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$(cpof $v)" org.jshmem.perf.gpu.GpuCollectivesBench $w/coll/$v-$r.csv 16K 5 \
    > $w/coll/$v-$r.log 2>&1
  echo "coll $v $r rc=$? at ${SECONDS}s: $(grep -E '^(reduce_sum|reducescatter)' $w/coll/$v-$r.csv | cut -d, -f1,3,5 | tr '\n' ' ')"
done
tar czf "$out/callA.tgz" -C $w .
unset CUDA_VISIBLE_DEVICES
OUT=$w timeout 200 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.DeviceApiTest > $w/test-DeviceApiTest.log 2>&1
echo "DeviceApiTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/test-DeviceApiTest.log | head -10
tar czf "$out/callA.tgz" -C $w .
