#!/usr/bin/env bash
# gemm-ext with PEs on two "nodes": the reference path validates, the fused path is refused (one H200, MPS)
cd "$(dirname "$0")"
here=$PWD; jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu
. ./one-gpu.sh; mps_start
timeout 200 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu \
  -jar junit-platform-console-standalone.jar execute -cp "$testcp" --details=tree --disable-banner \
  --select-method 'org.jshmem.it.gpu.GemmGpuTest#acrossNodesTheReferencePathValidates(java.lang.String)' 2>&1 \
  | sed 's/\x1b\[[0-9;]*m//g' > "$OUT/gemm-across-nodes.log"
mps_stop
grep -E "✔|✘|tests (successful|failed)" "$OUT/gemm-across-nodes.log"
