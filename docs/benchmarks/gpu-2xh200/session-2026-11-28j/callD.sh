#!/usr/bin/env bash
# Session 2026-11-28 (twentieth), call D on 2 x H200: the GEMM alone on GPU 0 beside run-gemm.sh (cuBLAS) in the
# same run (gpu-run.sh gemm: 12 shapes x bf16, fp16, validated); then GPU heaps across "nodes" (gpu-run.sh remote's
# GPU-heap modes: every peer remote, then two nodes; ApiTest, CompletenessTest, GpuStreamOpsTest with ibputOnStream,
# TeamCollectivesTest, GpuCollectivesTest's blocking and on-stream case).
set -u
here=$(pwd)
w=/tmp/oD; mkdir -p $w/gemm $w/remote
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
CUDA_VISIBLE_DEVICES=0 OUT=$w/gemm timeout 330 bash "$here/gpu-run.sh" gemm > $w/gemm/run.log 2>&1
echo "gemm rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/gemm/gemm-alone.log) FAIL=$(grep -c FAIL $w/gemm/gemm-alone.log)"
tar czf "$out/callD.tgz" -C $w .
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
. "$here/one-gpu.sh"
mps_start
for mode in remote two-nodes; do
  timeout 110 java -Djshmem.test.classpath="$testcp" -Djshmem.test.backend=cuda -Djshmem.test.transport=$mode \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
    execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.ApiTest \
    --select-class org.jshmem.it.CompletenessTest --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
    --select-class org.jshmem.it.coll.TeamCollectivesTest \
    --select-method 'org.jshmem.it.coll.GpuCollectivesTest#everyCollectiveBlockingAndOnAStream' > $w/remote/$mode.log 2>&1
  echo "remote mode $mode rc=$? at ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/remote/$mode.log | head
done
mps_stop
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callD.tgz" -C $w .
