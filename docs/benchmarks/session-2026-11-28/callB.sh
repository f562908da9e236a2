#!/usr/bin/env bash
# Session 2026-11-28, call B on 4 GPUs: the two-shot all-reduce and the reduce-scatter of 3+ PEs reading one member at
# a time (JSHMEM_GPU_REDUCE_ROTATED=1) against all at once (0), GpuCollectivesBench 4 PEs to 64 MB, interleaved, and
# 3 PEs; the NVSHMEM anchor on 4 PEs; GpuCollectivesTest with the rotation on.
set -u
here=$(pwd)
w=/tmp/oB; mkdir -p $w/coll
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
cp="$here/lib/*:$here/mpi.jar"
cpof() { if [ $1 = before ]; then echo "$here/before/shmem-device-0.1.0-SNAPSHOT.jar:$here/before/shmem-core-0.1.0-SNAPSHOT.jar:$here/lib/*:$here/mpi.jar"; else echo "$here/lib/*:$here/mpi.jar"; fi; }
for v in before new; do
  CUDA_VISIBLE_DEVICES=0 JSHMEM_BACKEND=cuda timeout 90 mpirun -np 1 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/probe-classes:$(cpof $v)" LaunchProbe > $w/launch-java-$v.txt 2>&1
  echo "LaunchProbe $v rc=$?"; grep round $w/launch-java-$v.txt
done
mkdir -p $w/perf
for r in 1 2; do
  for v in before new; do
    for spec in "sync barrier_latency --ops barrier_all" "red reduce --ops sum --types float --sizes 1K"; do
      set -- $spec; tag=$1; shift
      CUDA_VISIBLE_DEVICES=0,1 JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 100 mpirun -np 2 --bind-to none java \
        --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$(cpof $v)" org.jshmem.perf.PerfMain \
        "$@" --form on_stream --reps 5 --progress never --csv $w/perf/$tag-$v-$r.csv > $w/perf/$tag-$v-$r.log 2>&1
      echo "$tag $v $r rc=$?: $(grep '^jshmem' $w/perf/$tag-$v-$r.csv | cut -d, -f12-14)"
    done
  done
done
tar czf "$out/callB.tgz" -C $w .
coll() { # np rotated round
  JSHMEM_GPU_REDUCE_ROTATED=$2 JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=2G timeout 150 mpirun -np $1 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.gpu.GpuCollectivesBench $w/coll/np$1-rot$2-$3.csv 64M 3 > $w/coll/np$1-rot$2-$3.log 2>&1
  echo "np$1 rot$2 #$3 rc=$? at ${SECONDS}s: $(grep -E '^(reduce_sum|reducescatter)' $w/coll/np$1-rot$2-$3.csv | awk -F, '$3>=4194304' | cut -d, -f1,3,5,6 | tr '\n' ' ')"
}
for r in 1 2; do coll 4 0 $r; coll 4 1 $r; tar czf "$out/callB.tgz" -C $w .; done
coll 3 0 1; coll 3 1 1
tar czf "$out/callB.tgz" -C $w .
(cd anchors && timeout 200 bash run-nvshmem.sh 4) > $w/anchor-nvshmem-4pe.log 2>&1; echo "nvshmem rc=$? at ${SECONDS}s"
grep -i -E "reduce|sum" $w/anchor-nvshmem-4pe.log | tail -12
tar czf "$out/callB.tgz" -C $w .
JSHMEM_GPU_REDUCE_ROTATED=1 OUT=$w timeout 240 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.coll.GpuCollectivesTest > $w/test-coll-rot.log 2>&1
echo "GpuCollectivesTest (rotated) rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘|expected" $w/test-coll-rot.log | head -12
tar czf "$out/callB.tgz" -C $w .
