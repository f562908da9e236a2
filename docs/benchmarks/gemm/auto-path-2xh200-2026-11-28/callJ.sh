#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth), call J on one H200, the final build: GemmGpuTest.clustersOfTwoValidate
# (Kernel.maxCoResidentClusters in its final form), both PEs on the GPU under MPS.
set -u
here=$(pwd)
w=/tmp/oJ; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
. "$here/one-gpu.sh"
mps_start
SECONDS=0
timeout 170 java -Djshmem.test.classpath="$testcp" -Djshmem.test.backend=cuda -Djava.library.path=/usr/lib/x86_64-linux-gnu \
  -jar "$here/junit-platform-console-standalone.jar" execute -cp "$testcp" --details=tree --disable-banner \
  --select-method 'org.jshmem.it.gpu.GemmGpuTest#clustersOfTwoValidate(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)' \
  > $w/tests.log 2>&1
echo "clustersOfTwoValidate rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/tests.log | tail -4
mps_stop
tar czf "$out/callJ.tgz" -C $w .
