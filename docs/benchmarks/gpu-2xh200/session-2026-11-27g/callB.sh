#!/usr/bin/env bash
# Session 2026-11-27g, call B on 2 x H200: 1) DeviceApiTest (kernels launched through the new argument packing)
# and DeviceProxyTest (a put above the ring); 2) device put_bw A/B of the launch path (before/ jars first) and
# after, interleaved; 3) issue 13 on GPU 0 shared by 2 PEs under MPS: each PE's shard alone, the fused kernel
# (--path fused) for all-scatter and all-reduce, and the reference path for all-reduce, two rounds, validated.
set -u
here=$(pwd)
w=/tmp/oB; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt
SECONDS=0
OUT=$w timeout 200 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.DeviceApiTest > $w/tests.log 2>&1
echo "DeviceApiTest rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
timeout 150 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
  execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/proxy-test.log 2>&1
echo "DeviceProxyTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/proxy-test.log | head
tar czf "$out/callB.tgz" -C $w .
mkdir -p $w/launch
for r in 1 2; do
  for v in before new; do
    cp="$here/lib/*:$here/mpi.jar"
    [ $v = before ] && cp="$here/before/shmem-device-0.1.0-SNAPSHOT.jar:$here/before/shmem-core-0.1.0-SNAPSHOT.jar:$cp"
    csv=$w/launch/$v-$r.csv
    JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 90 mpirun -np 2 --bind-to none \
      java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
      org.jshmem.perf.PerfMain put_bw --sizes 64K,1M,256M --reps 5 --form device --progress never --csv $csv > ${csv%.csv}.log 2>&1
    echo "$v rc=$? at ${SECONDS}s: $(grep -E '^jshmem,' $csv | cut -d, -f7,11 | tr '\n' ' ')"
  done
done
tar czf "$out/callB.tgz" -C $w .
. ./one-gpu.sh
mps_start
cp="$here/lib/*:$here/mpi.jar"
mkdir -p $w/fused
g() { # name collective shape [options]
  local name=$1 c=$2 shape=$3; shift 3
  CUDA_VISIBLE_DEVICES=0 JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype bf16 --validate "$@" --csv $w/fused/fused-vs-alone.csv > $w/fused/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/fused/$name.log) at ${SECONDS}s: $(tail -1 $w/fused/fused-vs-alone.csv | cut -d, -f1-5,8 | tr '\n' ' ') $(tail -1 $w/fused/fused-vs-alone.csv | grep -o 'reference path\|hopper [0-9x]*' | head -1)"
}
for r in 1 2; do
  g alone-as-$r none 8192x4096x8192
  g scatter-fused-$r all_scatter 8192x8192x8192 --path fused
  g alone-ar-$r none 8192x8192x4096
  g allreduce-fused-$r all_reduce 8192x8192x8192 --path fused
  g allreduce-ref-$r all_reduce 8192x8192x8192 --path reference
  tar czf "$out/callB.tgz" -C $w .
done
mps_stop
tar czf "$out/callB.tgz" -C $w .
