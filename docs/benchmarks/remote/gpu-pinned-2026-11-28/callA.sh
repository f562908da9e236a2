#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth): the remote transport's GPU-heap staging through pinned buffers
# (the server's inbox/outbox page-locked while it serves a device heap; RemoteRouting's stage from
# cudaHostAlloc), against the build before (its shmem-core jar first on the class path), interleaved,
# every peer remote (JSHMEM_TRANSPORT=remote), 2 PEs on one GPU under MPS. Then the proxy test and the
# API suite on GPU heaps with every peer remote, on this build.
set -u
here=$(pwd)
w=/tmp/oA; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
. "$here/one-gpu.sh"
nvidia-smi -L > $w/machine.txt; nvidia-smi --query-gpu=name,driver_version --format=csv >> $w/machine.txt
mps_start
perf() { # build round form benchmarks sizes
  local b=$1 r=$2 form=$3 bench=$4 sizes=$5
  local cp="$here/lib/*:$here/mpi.jar"; [ $b = before ] && cp="$here/before/shmem-core-0.1.0-SNAPSHOT.jar:$cp"
  local f="$w/$form-$b-$r"
  JSHMEM_TRANSPORT=remote JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=256M timeout 100 mpirun -np 2 --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.PerfMain $bench --sizes $sizes --form $form --reps 3 --csv "$f.csv" > "$f.log" 2>&1
  echo "$form $b $r rc=$? $(grep -E '^jshmem,' $f.csv | cut -d, -f2,7,11 | tr '\n' ' ')"
}
SECONDS=0
for r in 1 2; do
  for b in before pinned; do
    perf $b $r host "put_bw get_bw" 64K,1M,4M
    perf $b $r device "put_bw get_bw" 64K,1M
  done
  tar czf "$out/callA.tgz" -C $w .
done 2>&1 | tee $w/ab.txt
echo "A/B done in ${SECONDS}s"
SECONDS=0
timeout 150 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
  execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/proxy-test.log 2>&1
echo "DeviceProxyTest rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/proxy-test.log | head
SECONDS=0
timeout 200 java -Djshmem.test.classpath="$testcp" -Djshmem.test.backend=cuda -Djshmem.test.transport=remote \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
  execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.ApiTest \
  --select-class org.jshmem.it.gpu.GpuStreamOpsTest > $w/api-remote.log 2>&1
echo "ApiTest + GpuStreamOpsTest (remote) rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/api-remote.log | head
mps_stop
ls /dev/shm | head > $w/dev-shm-after.txt
tar czf "$out/callA.tgz" -C $w .
