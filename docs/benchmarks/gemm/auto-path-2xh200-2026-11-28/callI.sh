#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth), call I on one H200: GemmGpuTest.autoPathWherePesShareAGpu with the rule
# that fuses the all-scatter at every size, both PEs on the GPU under MPS.
set -u
here=$(pwd)
w=/tmp/oI; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
. "$here/one-gpu.sh"
mps_start
SECONDS=0
timeout 200 java -Djshmem.test.classpath="$testcp" -Djshmem.test.backend=cuda -Djava.library.path=/usr/lib/x86_64-linux-gnu \
  -jar "$here/junit-platform-console-standalone.jar" execute -cp "$testcp" --details=tree --disable-banner \
  --select-method 'org.jshmem.it.gpu.GemmGpuTest#autoPathWherePesShareAGpu(java.lang.String, java.lang.String, java.lang.String)' \
  > $w/tests.log 2>&1
echo "autoPathWherePesShareAGpu rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘|✔" $w/tests.log | tail -6
mps_stop
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callI.tgz" -C $w .
