#!/usr/bin/env bash
# Session 2026-11-27f: the host-called channel changes (stream writes for 4/8-byte p and signal SETs, quiet
# skipping an idle stream). 1) the API suite and the on-stream tests on 2 GPUs; 2) host latencies, the build
# before (lib-old: 2c8b3e3's shmem-core jar, its own shim inside) and this one, interleaved, two rounds.
set -u
here=$(pwd)
w=/tmp/oA; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt; nvidia-smi topo -m >> $w/machine.txt
SECONDS=0
OUT=$w timeout 300 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.ApiTest \
  --select-class org.jshmem.it.CompletenessTest --select-class org.jshmem.it.gpu.GpuStreamOpsTest > $w/tests.log 2>&1
echo "tests rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
tar czf "$out/callA.tgz" -C $w .
for round in 1 2; do
  for build in old new; do
    cp="$here/lib/*:$here/mpi.jar"; [ $build = old ] && cp="$here/lib-old/shmem-core.jar:$cp"
    JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=256M timeout 90 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
      -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain put_latency p_latency \
      put_signal_latency --form host --sizes 8 --iters 1000 --reps 5 --progress never --csv "$w/host-$build-$round.csv" \
      > "$w/host-$build-$round.log" 2>&1
    echo "$build round $round rc=$? $(grep -E '^jshmem,' $w/host-$build-$round.csv | cut -d, -f2,5,7,11 | tr '\n' ' ')"
  done
done
tar czf "$out/callA.tgz" -C $w .
