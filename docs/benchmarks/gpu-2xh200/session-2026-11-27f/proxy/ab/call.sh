#!/usr/bin/env bash
# Session 2026-11-27f: the proxy entering MPI between every poll (always) against at most every 10 us (paced,
# this build), interleaved, two rounds; DeviceProxyTest on the paced build first.
set -u
here=$(pwd)
w=/tmp/oF; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
SECONDS=0
timeout 150 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
  execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/proxy-test.log 2>&1
echo "DeviceProxyTest rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/proxy-test.log | head
for round in 1 2; do
  for v in always paced; do
    cp="$here/lib/*:$here/mpi.jar"; [ $v = always ] && cp="$here/lib-always/proxy-always.jar:$cp"
    JSHMEM_TRANSPORT=remote JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=256M timeout 60 mpirun -np 2 --bind-to none \
      java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
      org.jshmem.perf.PerfMain put_signal_latency atomic_latency put_bw --sizes 8,4K,64K,1M --form device --reps 3 \
      --progress never --csv "$w/proxy-$v-$round.csv" > "$w/proxy-$v-$round.log" 2>&1
    echo "$v $round rc=$? $(grep -E '^jshmem,' $w/proxy-$v-$round.csv | cut -d, -f2,7,10,11 | tr '\n' ' ')"
    tar czf "$out/callF.tgz" -C $w .
  done
done
