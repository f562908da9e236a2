#!/usr/bin/env bash
# Session 2026-11-28 (eighteenth), call H on one H200: GpuStreamOpsTest on GPU heaps with every peer on another
# "node" and on two "nodes" (gpu-run.sh remote's first step, this class only): the gather of the others' blocks
# (Team.collectOthersSignalOnStream) through the staged collectives of the remote transport.
set -u
here=$(pwd)
w=/tmp/oH; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu
jars=$(printf '%s:' "$here"/lib/*.jar)   # spelled out: the JUnit console launcher does not expand "lib/*"
testcp="$here/test-classes:${jars}$here/mpi.jar"
. ./one-gpu.sh
mps_start
SECONDS=0
for mode in remote two-nodes; do
  echo "== GPU heaps, JSHMEM transport test mode $mode"
  timeout 150 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu \
    -Djshmem.test.backend=cuda -Djshmem.test.transport=$mode -jar "$here/junit-platform-console-standalone.jar" \
    execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.gpu.GpuStreamOpsTest
  echo "rc=$? at ${SECONDS}s"
done > $w/remote.log 2>&1
mps_stop
grep -E "== |rc=|tests (successful|failed)|✘" $w/remote.log
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callH.tgz" -C $w .
