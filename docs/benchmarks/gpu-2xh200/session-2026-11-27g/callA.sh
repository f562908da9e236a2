#!/usr/bin/env bash
# Session 2026-11-27g, call A on 2 x H200: 1) the API suite, the on-stream tests and the GPU collectives, then
# DeviceProxyTest; 2) device put_bw A/B, the copy loop before (before/shmem-device jar first) and after, interleaved;
# 3) proxied put bandwidth and put_signal latency (JSHMEM_TRANSPORT=remote) before (both jars) and after, interleaved.
set -u
here=$(pwd)
w=/tmp/oA; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
OUT=$w timeout 240 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.ApiTest \
  --select-class org.jshmem.it.CompletenessTest --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-class org.jshmem.it.coll.GpuCollectivesTest > $w/tests.log 2>&1
echo "tests rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
timeout 150 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
  execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/proxy-test.log 2>&1
echo "DeviceProxyTest rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/proxy-test.log | head
tar czf "$out/callA.tgz" -C $w .
perf() {   # perf <variant> <csv> <extra env...> -- <PerfMain args>
  local v=$1 csv=$2; shift 2
  local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  local cp="$here/lib/*:$here/mpi.jar"
  [ $v = copy-before ] && cp="$here/before/shmem-device-0.1.0-SNAPSHOT.jar:$cp"
  [ $v = proxy-before ] && cp="$here/before/shmem-device-0.1.0-SNAPSHOT.jar:$here/before/shmem-core-0.1.0-SNAPSHOT.jar:$cp"
  env "${envs[@]}" JSHMEM_BACKEND=cuda timeout 90 mpirun -np 2 --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.PerfMain "$@" --form device --progress never --csv "$csv" > "${csv%.csv}.log" 2>&1
  echo "$v rc=$? at ${SECONDS}s: $(grep -E '^jshmem,' $csv | cut -d, -f2,4,5,7,10,11 | tr '\n' ' ')"
}
mkdir -p $w/copy $w/proxy
for r in 1 2; do
  for v in copy-before copy-new; do
    perf $v $w/copy/$v-$r.csv JSHMEM_SYMMETRIC_SIZE=1G -- put_bw --sizes 16K,64K,1M,256M --reps 5
  done
done
tar czf "$out/callA.tgz" -C $w .
for r in 1 2; do
  for v in proxy-before proxy-new; do
    perf $v $w/proxy/$v-$r.csv JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=256M -- put_bw put_signal_latency --sizes 64K,1M,4M --reps 3
  done
done
tar czf "$out/callA.tgz" -C $w .
