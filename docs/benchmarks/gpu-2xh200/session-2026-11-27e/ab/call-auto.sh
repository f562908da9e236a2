#!/usr/bin/env bash
# After DeviceModule's compiles leave the proxy path out in jobs on one node: DeviceProxyTest again (jobs across
# "nodes" compile it in), then the device puts with the automatic choice beside -DJSHMEM_NO_PROXY, interleaved.
set -u
here=$(pwd)
w=/tmp/o11; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
. "$here/one-gpu.sh"
mps_start
SECONDS=0
timeout 120 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
  execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/proxy.log 2>&1
echo "DeviceProxyTest rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/proxy.log | head
mps_stop
tar czf "$out/call11.tgz" -C $w .
cp="$here/lib/*:$here/mpi.jar"
for v in auto no-proxy auto no-proxy; do
  opt=""; [ $v = no-proxy ] && opt="-Djshmem.perf.kernelOptions=-DJSHMEM_NO_PROXY"
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu $opt -cp "$cp" org.jshmem.perf.PerfMain put_bw \
    --form device --sizes 4K,16K,64K --reps 5 --progress never --csv "$w/ab-$v.csv" > "$w/ab-$v.log" 2>&1
  echo "$v rc=$? $(grep -E '^jshmem,' $w/ab-$v.csv | cut -d, -f7,11 | tr '\n' ' ')"
  cat $w/ab-$v.csv >> $w/ab-all.csv
done
tar czf "$out/call11.tgz" -C $w .
