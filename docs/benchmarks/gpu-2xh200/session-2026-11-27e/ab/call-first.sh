#!/usr/bin/env bash
# A/B on 2 x H200: the device forms with the proxy's branch (as shipped) and compiled out (-DJSHMEM_NO_PROXY),
# interleaved, same machine, same call.
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
for round in 1 2; do
  for v in proxy no-proxy; do
    opt=""; [ $v = no-proxy ] && opt="-Djshmem.perf.kernelOptions=-DJSHMEM_NO_PROXY"
    echo "== round $round, $v"
    JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 120 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
      -Djava.library.path=/usr/lib/x86_64-linux-gnu $opt -cp "$cp" org.jshmem.perf.PerfMain put_bw p_latency put_signal_latency \
      barrier_latency --form device --sizes 4K,64K,1M,256M --reps 5 --progress never --csv "$out/ab-$v-$round.csv" > "$out/ab-$v-$round.log" 2>&1
    echo "rc=$?"; grep -E "^jshmem," "$out/ab-$v-$round.csv" | cut -d, -f2,7,11
  done
done
