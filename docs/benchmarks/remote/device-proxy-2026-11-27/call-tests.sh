#!/usr/bin/env bash
# Session 2026-11-27 (twelfth): the device proxy (issue 17) and the device API on the local path.
set -u
here=$(pwd)
w=/tmp/o7; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/machine.txt 2>&1; cat $w/machine.txt
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
export here testcp
. "$here/one-gpu.sh"
# junit [JVM -D options...] -- [console options...]
cat > $w/junit.sh <<'EOS'
jvm=(); while [ "$1" != "--" ]; do jvm+=("$1"); shift; done; shift
exec java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu "${jvm[@]}" \
  -jar "$here/junit-platform-console-standalone.jar" execute -cp "$testcp" --details=tree --disable-banner "$@"
EOS
mps_start
echo "== 1. DeviceProxyTest"
SECONDS=0
timeout 200 bash $w/junit.sh -- --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/proxy.log 2>&1
echo "rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘|expected|jshmem:" $w/proxy.log | head -20
tar czf "$out/call7.tgz" -C $w .
mps_stop; mps_start
echo "== 2. ApiTest and GpuStreamOpsTest on the GPU backend (host atomics now write the old value straight into pinned memory)"
SECONDS=0
timeout 330 bash $w/junit.sh -Djshmem.test.backend=cuda -- --select-class org.jshmem.it.ApiTest --select-class org.jshmem.it.gpu.GpuStreamOpsTest > $w/api.log 2>&1
echo "rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/api.log | head -10
mps_stop
tar czf "$out/call7.tgz" -C $w .
tar czf "$out/call7.tgz" -C $w .
