#!/usr/bin/env bash
# Session 2026-11-27f: the device proxy serving other nodes' requests while it polls. DeviceProxyTest, then the
# proxied device latencies (JSHMEM_TRANSPORT=remote), each with its own time limit.
set -u
here=$(pwd)
w=/tmp/oE; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
SECONDS=0
timeout 150 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
  execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/proxy-test.log 2>&1
echo "DeviceProxyTest rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/proxy-test.log | head
tar czf "$out/callE.tgz" -C $w .
cp="$here/lib/*:$here/mpi.jar"
for b in "put_signal_latency --sizes 8,4K,64K" "atomic_latency" "put_bw --sizes 8,4K,64K,1M" "get_bw --sizes 8,4K,64K,1M"; do
  name=${b%% *}
  JSHMEM_TRANSPORT=remote JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=256M timeout 60 mpirun -np 2 --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.PerfMain $b --form device --reps 3 --progress never --csv "$w/proxy-$name.csv" > "$w/proxy-$name.log" 2>&1
  echo "$name rc=$? $(grep -E '^jshmem,' $w/proxy-$name.csv | cut -d, -f2,4,5,7,10,11 | tr '\n' ' ')"
  tar czf "$out/callE.tgz" -C $w .
done
