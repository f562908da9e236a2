#!/usr/bin/env bash
# after the node-shared team moved to TeamLayout.shared (the GPU backend's device slot 1 from it): one node and across "nodes"
cd "$(dirname "$0")"
here=$PWD; jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu
. ./one-gpu.sh; mps_start
for mode in "" two-nodes; do
  echo "== mode '${mode}'"
  timeout 110 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu -Djshmem.test.backend=cuda \
    -Djshmem.test.transport=$mode -jar junit-platform-console-standalone.jar execute -cp "$testcp" --details=tree --disable-banner \
    --select-method 'org.jshmem.it.coll.GpuCollectivesTest#everyCollectiveBlockingAndOnAStream' \
    --select-class org.jshmem.it.gpu.GpuStreamOpsTest 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
done > "$OUT/after-shared-team.log"
mps_stop
grep -E "✔|✘|== |tests (successful|failed)" "$OUT/after-shared-team.log"
