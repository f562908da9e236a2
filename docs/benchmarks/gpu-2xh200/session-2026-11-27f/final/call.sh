#!/usr/bin/env bash
# Session 2026-11-27f, the final build: 1) the API suite, the on-stream tests and the GPU collectives on 2 GPUs;
# 2) bench-gpu.sh (NVSHMEM anchor + jshmem, same run); 3) kernels' calls through the device proxy
# (JSHMEM_TRANSPORT=remote: every peer remote, so every device call to the peer is proxied) beside the
# same kernels on NVLink; 4) the launch floor (nvlink_micro E).
set -u
here=$(pwd)
w=/tmp/oC; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
OUT=$w timeout 300 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.ApiTest \
  --select-class org.jshmem.it.CompletenessTest --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-class org.jshmem.it.coll.GpuCollectivesTest > $w/tests.log 2>&1
echo "tests rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
mkdir -p $w/bench; OUT=$w/bench timeout 400 bash "$here/bench-gpu.sh" > /dev/null 2>&1; echo "bench rc=$? at ${SECONDS}s"
cat $w/bench/summary.txt
tar czf "$out/callC.tgz" -C $w .
cp="$here/lib/*:$here/mpi.jar"
for t in nvlink proxy; do
  extra=(env); [ $t = proxy ] && extra=(env JSHMEM_TRANSPORT=remote)
  "${extra[@]}" env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 150 mpirun -np 2 --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.PerfMain p_latency put_signal_latency put_bw get_bw atomic_latency --form device \
    --sizes 8,4K,64K,1M --reps 3 --progress never --csv "$w/device-$t.csv" > "$w/device-$t.log" 2>&1
  echo "$t rc=$? at ${SECONDS}s"; grep -E '^jshmem,' $w/device-$t.csv | cut -d, -f2,4,5,7,10,11 | tr '\n' ' '; echo
done
tar czf "$out/callC.tgz" -C $w .
"$here/../build/micro/nvlink_micro" E | tee $w/launch-floor.txt
tar czf "$out/callC.tgz" -C $w .
